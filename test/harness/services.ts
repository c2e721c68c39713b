/**
 * Starts Signet services in this process on free ports against the real infrastructure the
 * globalSetup found. Each call gets its own database names, so test files do not see each other's data.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectBus, createLogger, parseConfig, STREAM } from '@signet/kit';
import { distinctFreePorts } from './local-infra.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { startGateway } from '../../services/gateway/src/app.js';
import { ledgerConfigSchema } from '../../services/ledger/src/config.js';
import { startLedger } from '../../services/ledger/src/app.js';
import { identityConfigSchema } from '../../services/identity/src/config.js';
import { startIdentity } from '../../services/identity/src/app.js';
import { billingConfigSchema } from '../../services/billing/src/config.js';
import { startBilling } from '../../services/billing/src/app.js';
import { transactionConfigSchema } from '../../services/transaction/src/config.js';
import { startTransaction } from '../../services/transaction/src/app.js';
import { ceremonyConfigSchema } from '../../services/ceremony/src/config.js';
import { startCeremony } from '../../services/ceremony/src/app.js';
import { biometricsConfigSchema } from '../../services/biometrics/src/config.js';
import { startBiometrics } from '../../services/biometrics/src/app.js';

export function infra() {
  return inject('infra');
}

/** Fresh secrets for one test run: generated, never defaults. */
export function testSecrets() {
  return {
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    LEDGER_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    LEDGER_ORIGIN: 'signet.test/ledger',
    // Test mode: the test log's own key (test-mode certificates are sealed there, never in the live log).
    LEDGER_TEST_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    DOWNLOAD_LINK_SECRET: randomBytes(32).toString('base64url'),
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
  };
}

export type ServiceName = 'gateway' | 'identity' | 'billing' | 'transaction' | 'ceremony' | 'biometrics' | 'ledger';
export const BACKEND: Exclude<ServiceName, 'gateway'>[] = [
  'identity',
  'billing',
  'transaction',
  'ceremony',
  'biometrics',
  'ledger',
];

type Started = { grpcPort?: number; opsPort: number; stop(): Promise<void> };

/** Each backend service: its config schema and start function, as main.ts uses them. */
const starters: Record<Exclude<ServiceName, 'gateway'>, (env: Record<string, string>, o: StartOptions) => Promise<Started>> = {
  identity: (env, o) => startIdentity(parseConfig(identityConfigSchema, env), { logger: o.logger }),
  billing: (env, o) => startBilling(parseConfig(billingConfigSchema, env), { logger: o.logger }),
  transaction: (env, o) => startTransaction(parseConfig(transactionConfigSchema, env), { logger: o.logger }),
  ceremony: (env, o) => startCeremony(parseConfig(ceremonyConfigSchema, env), { logger: o.logger }),
  biometrics: (env, o) => startBiometrics(parseConfig(biometricsConfigSchema, env), { logger: o.logger }),
  ledger: (env, o) => startLedger(parseConfig(ledgerConfigSchema, env), { logger: o.logger, ackWaitMs: o.ledgerAckWaitMs }),
};

export type StartOptions = {
  logger: ReturnType<typeof createLogger>;
  ledgerAckWaitMs?: number;
  /** Extra environment for every service (e.g. REFERENCE_PREFIX, PRODUCT_CATALOG). */
  env?: Record<string, string>;
  /** Host name of the public base URL (default 127.0.0.1). */
  host?: string;
  /**
   * Replicas of a backend (default 1): each on its own ports and the same database, its callers
   * dialling them all (an `ipv4:` target, round-robin) as a headless Service gives them in the chart.
   */
  replicas?: Partial<Record<Exclude<ServiceName, 'gateway'>, number>>;
};

/**
 * The environment every service of one stack shares: the infrastructure's addresses, the public URL,
 * the backends' gRPC addresses, a per-run Redis prefix and the run's secrets (`env` last, to override).
 */
export function stackEnvironment(o: {
  run: string;
  gatewayUrl: string;
  addr: (name: Exclude<ServiceName, 'gateway'>) => string;
  biometrics: boolean;
  secrets: ReturnType<typeof testSecrets>;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    ...(Object.fromEntries(Object.entries(infra()).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_BASE_URL: o.gatewayUrl,
    WEBAUTHN_ORIGIN: o.gatewayUrl,
    // Redis keys (rate limits, caches) are per run unless a test shares a prefix between stacks.
    REDIS_KEY_PREFIX: `t_${o.run}:`,
    ...Object.fromEntries(BACKEND.map((n) => [`${n.toUpperCase()}_ADDR`, o.addr(n)])),
    // A reference photo must show exactly one face, counted by biometrics: checked whenever the stack
    // runs biometrics; stacks without its models (and their test-pattern photos) skip it.
    REFERENCE_FACE_CHECK: o.biometrics ? 'on' : 'off',
    ...o.secrets,
    ...o.env,
  };
}

let busCleared: Promise<void> | undefined;

/**
 * Test files run one at a time on one JetStream stream with the services' own durable names, so
 * events a file left unconsumed (captures published with no biometrics service running, say)
 * would reach the next file's consumers: each file's first stack starts on an empty stream.
 */
export function clearBusOnce(url: string): Promise<void> {
  busCleared ??= (async () => {
    const bus = await connectBus(url, 'test-harness');
    try {
      await bus.jsm.streams.purge(STREAM);
    } finally {
      await bus.nc.close();
    }
  })();
  return busCleared;
}

/**
 * Starts the named services (backends first, the gateway last) and returns their addresses. The
 * gateway's readiness requires only its Redis (its default); `stopService`/`startService` take one
 * backend away and bring it back.
 */
export async function startServices(names: ServiceName[], opts: Partial<Omit<StartOptions, 'logger'>> = {}) {
  const i = infra();
  await clearBusOnce(i.NATS_URL);
  const run = randomBytes(4).toString('hex');
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  // Every port of the stack drawn at once, all different: a port drawn alone and bound later could be
  // handed out again meanwhile (the gateway once "started" on a port a backend's ops server held).
  const extra = BACKEND.map((n) => Math.max(1, opts.replicas?.[n] ?? 1) - 1);
  const ports = await distinctFreePorts(2 * BACKEND.length + 2 + 2 * extra.reduce((a, b) => a + b, 0));
  const grpc: Record<string, number> = {};
  const ops: Record<string, number> = {};
  BACKEND.forEach((n, k) => {
    grpc[n] = ports[2 * k]!;
    ops[n] = ports[2 * k + 1]!;
  });
  // The further replicas' ports, after the gateway's two.
  const more: Record<string, { grpc: number; ops: number }[]> = {};
  let next = 2 * BACKEND.length + 2;
  BACKEND.forEach((n, k) => {
    more[n] = Array.from({ length: extra[k]! }, () => ({ grpc: ports[next++]!, ops: ports[next++]! }));
  });
  const addr = (n: string) =>
    more[n]!.length
      ? `ipv4:${[grpc[n], ...more[n]!.map((r) => r.grpc)].map((p) => `127.0.0.1:${p}`).join(',')}`
      : `127.0.0.1:${grpc[n]}`;
  const httpPort = ports[2 * BACKEND.length]!;
  const gatewayOpsPort = ports[2 * BACKEND.length + 1]!;
  // WebAuthn needs a secure context: 'localhost' is one, a bare IP address is not.
  const gatewayUrl = `http://${opts.host ?? '127.0.0.1'}:${httpPort}`;
  const secrets = testSecrets();
  const common = stackEnvironment({ run, gatewayUrl, addr, biometrics: names.includes('biometrics'), secrets, env: opts.env });
  const stops: (() => Promise<void>)[] = [];
  const out = {
    gatewayUrl,
    opsPorts: {} as Record<string, number>,
    /** Every replica's ops port, by backend (the first is opsPorts[n]). */
    replicaOpsPorts: {} as Record<string, number[]>,
    run,
    dbs: {} as Record<string, string>,
    secrets,
    env: common,
  };
  const o: StartOptions = { logger, ...opts };
  // The running backends, so one can be stopped and started again on the same port and database.
  const running: Partial<Record<Exclude<ServiceName, 'gateway'>, Started>> = {};
  const envOf: Partial<Record<Exclude<ServiceName, 'gateway'>, Record<string, string>>> = {};
  // Replicas beyond the first, in start order: stopReplica(n, k) stops the k-th of n (k ≥ 1).
  const replicas: { name: string; svc: Started; stopped: boolean }[] = [];
  try {
    for (const n of BACKEND.filter((b) => names.includes(b))) {
      const db = `t_${run}_${n}`;
      out.dbs[n] = db;
      envOf[n] = { ...common, GRPC_PORT: String(grpc[n]), OPS_PORT: String(ops[n]), MONGO_DB: db };
      const svc = await starters[n](envOf[n], o);
      running[n] = svc;
      out.opsPorts[n] = svc.opsPort;
      stops.unshift(async () => {
        await running[n]?.stop();
        running[n] = undefined;
      });
      out.replicaOpsPorts[n] = [svc.opsPort];
      for (const r of more[n]!) {
        const replica = await starters[n]({ ...envOf[n], GRPC_PORT: String(r.grpc), OPS_PORT: String(r.ops) }, o);
        const entry = { name: n, svc: replica, stopped: false };
        replicas.push(entry);
        out.replicaOpsPorts[n].push(replica.opsPort);
        stops.unshift(async () => {
          if (!entry.stopped) await replica.stop();
        });
      }
    }
    if (names.includes('gateway')) {
      const cfg = parseConfig(gatewayConfigSchema, {
        ...common,
        HTTP_PORT: String(httpPort),
        OPS_PORT: String(gatewayOpsPort),
      });
      const gw = await startGateway(cfg, { logger });
      out.opsPorts.gateway = gw.opsPort;
      stops.unshift(() => gw.stop());
    }
  } catch (err) {
    for (const s of stops) await s().catch(() => undefined);
    throw err;
  }
  return {
    ...out,
    async stop() {
      for (const s of stops) await s();
    },
    /** Stops one running backend (as a crash would take it away); the rest keep running. */
    async stopService(n: Exclude<ServiceName, 'gateway'>) {
      await running[n]?.stop();
      running[n] = undefined;
    },
    /** Stops replica k (1 = the second) of a backend started with `replicas`, as a rollout would. */
    async stopReplica(n: Exclude<ServiceName, 'gateway'>, k: number) {
      const r = replicas.filter((x) => x.name === n)[k - 1];
      if (!r) throw new Error(`${n} has no replica ${k}`);
      if (r.stopped) return;
      r.stopped = true;
      await r.svc.stop();
    },
    /**
     * Starts a backend stopped by stopService again, on its port and with its database; `env` changes
     * its configuration from then on (a restart with a rotated key, say).
     */
    async startService(n: Exclude<ServiceName, 'gateway'>, env?: Record<string, string>) {
      if (!envOf[n]) throw new Error(`${n} was not started by this stack`);
      if (running[n]) return;
      if (env) envOf[n] = { ...envOf[n], ...env };
      const current = envOf[n]!;
      const svc = await starters[n](current, o);
      running[n] = svc;
      out.opsPorts[n] = svc.opsPort;
    },
  };
}

export { eventually } from './eventually.js';
