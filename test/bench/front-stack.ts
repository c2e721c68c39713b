/**
 * The stack the creation benchmarks run against: the infrastructure (the URLs in the environment when
 * all are set, else the local binaries under a temporary folder) and identity, billing, transaction and
 * the gateway as child processes (processes.ts), biometrics, ceremony and ledger left out. Each benchmark
 * adds its own environment; `stop` ends everything and removes the folder (BENCH_KEEP=1 keeps the logs).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, infraFromEnv, startLocalInfra, type InfraUrls } from '../harness/local-infra.js';
import { startService, waitHealthy, type ServiceProcess } from './processes.js';

const FRONT = ['identity', 'billing', 'transaction'] as const;

export type FrontStack = {
  urls: InfraUrls;
  gatewayUrl: string;
  /** The payment webhook's secret (fundAccount signs with it). */
  webhookSecret: string;
  /** A random tag of this run (buckets, key prefixes, database names). */
  run: string;
  /** The temporary folder (the services' logs are `<name>.log` in it). */
  tmp: string;
  svcs: ServiceProcess[];
  /** Each service's ops port (/metrics, /readyz). */
  ops: Record<(typeof FRONT)[number] | 'gateway', number>;
  /** The local infrastructure's processes (none when the environment gave the URLs). */
  infraPids: { name: string; pid: number }[];
  stop: () => Promise<void>;
};

export async function startFrontStack(o: {
  /** the temporary folder's prefix */
  tag: string;
  /** the benchmark's own variables, on top of the common ones */
  env?: (s: { urls: InfraUrls; run: string }) => Record<string, string>;
  /** set up between the infrastructure and the services (e.g. a proxy in front of the store); stopped with them */
  before?: (urls: InfraUrls) => Promise<{ env: Record<string, string>; stop: () => Promise<void> } | undefined>;
}): Promise<FrontStack> {
  const tmp = mkdtempSync(join(tmpdir(), `signet-bench-${o.tag}-`));
  // The local store's PostgreSQL runs as its own user under tmp/infra: let it through.
  chmodSync(tmp, 0o711);
  let infraStop: (() => Promise<void>) | undefined;
  let infraPids: FrontStack['infraPids'] = [];
  let urls: InfraUrls;
  const given = infraFromEnv();
  if (given) urls = given;
  else {
    const infra = await startLocalInfra({ dataDir: join(tmp, 'infra') });
    urls = infra.urls;
    infraPids = infra.procs.map((p) => ({ name: p.name, pid: p.pid }));
    infraStop = () => infra.stop();
  }
  const extra = await o.before?.(urls);
  const run = randomBytes(3).toString('hex');
  const port = {
    identity: await freePort(),
    billing: await freePort(),
    transaction: await freePort(),
    gatewayHttp: await freePort(),
  };
  const ops = { identity: await freePort(), billing: await freePort(), transaction: await freePort(), gateway: await freePort() };
  const gatewayUrl = `http://127.0.0.1:${port.gatewayHttp}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const common: Record<string, string> = {
    ...(urls as unknown as Record<string, string>),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    PUBLIC_BASE_URL: gatewayUrl,
    IDENTITY_ADDR: `127.0.0.1:${port.identity}`,
    BILLING_ADDR: `127.0.0.1:${port.billing}`,
    BIOMETRICS_ADDR: '127.0.0.1:1',
    REFERENCE_FACE_CHECK: 'off',
    TRANSACTION_ADDR: `127.0.0.1:${port.transaction}`,
    CEREMONY_ADDR: '127.0.0.1:1',
    LEDGER_ADDR: '127.0.0.1:1',
    READINESS_UPSTREAMS: 'identity,billing,transaction',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: webhookSecret,
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
    PRODUCT_CATALOG: JSON.stringify({ prod_bench: { credits: 1000 } }),
    REDIS_KEY_PREFIX: `bench${run}:`,
    BUCKET_DOCUMENTS: `bench-docs-${run}`,
    BUCKET_REFERENCES: `bench-refs-${run}`,
    ...extra?.env,
    ...o.env?.({ urls, run }),
  };
  const svcs: ServiceProcess[] = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const s of [...svcs].reverse()) {
      s.proc.kill('SIGTERM');
      await Promise.race([once(s.proc, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    }
    await extra?.stop();
    await infraStop?.();
    if (process.env.BENCH_KEEP) console.error(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  };
  try {
    for (const n of FRONT)
      svcs.push(
        startService(n, { ...common, GRPC_PORT: String(port[n]), OPS_PORT: String(ops[n]), MONGO_DB: `bench_${run}_${n}` }, tmp),
      );
    for (const n of FRONT) await waitHealthy(`http://127.0.0.1:${ops[n]}/readyz`);
    svcs.push(startService('gateway', { ...common, HTTP_PORT: String(port.gatewayHttp), OPS_PORT: String(ops.gateway) }, tmp));
    await waitHealthy(`${gatewayUrl}/readyz`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, gatewayUrl, webhookSecret, run, tmp, svcs, ops, infraPids, stop };
}
