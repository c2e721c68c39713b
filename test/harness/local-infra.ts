/**
 * Starts the real infrastructure from local binaries (no Docker): NATS with JetStream, Redis,
 * FerretDB on PostgreSQL (or SQLite: local-store.ts) as the MongoDB-compatible store, MinIO, Mailpit. Used by the local
 * stack command and by the test harness when no URLs are given and no Docker engine answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startWitness } from './witness.js';
import { startStore, storeBackend, type StoreBackend } from './local-store.js';

export type InfraUrls = {
  MONGO_URL: string;
  NATS_URL: string;
  REDIS_URL: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  SMTP_URL: string;
  /** Mailpit's HTTP API, where tests read mail. */
  MAILPIT_URL: string;
  /** The C2SP tlog witness (litewitness, scripts/witness.sh), its verifier key and its database (to register a log: witness.ts). */
  WITNESS_URL?: string;
  WITNESS_VERIFIER_KEY?: string;
  WITNESS_DB?: string;
  /** The RFC 3161 time-stamping authority (certomancer, scripts/tsa.sh); optional in the environment. */
  TSA_URL?: string;
  /** Its development PKI: certs/{root,tsa,seal}.pem and keys/seal.key.pem (the ledger's sealing key). */
  DEV_PKI_DIR?: string;
  /** PostgreSQL under FerretDB, when the local store runs on it (tests that reach past FerretDB: test/infra). */
  STORE_POSTGRES_URL?: string;
};

const INFRA_KEYS: (keyof InfraUrls)[] = [
  'MONGO_URL',
  'NATS_URL',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'SMTP_URL',
  'MAILPIT_URL',
];

/** The infrastructure the environment names (every one of MONGO_URL … MAILPIT_URL set), else null. */
export function infraFromEnv(env: NodeJS.ProcessEnv = process.env): InfraUrls | null {
  if (!INFRA_KEYS.every((k) => env[k])) return null;
  const urls = Object.fromEntries(INFRA_KEYS.map((k) => [k, env[k]!])) as InfraUrls;
  if (env.TSA_URL && env.DEV_PKI_DIR) Object.assign(urls, { TSA_URL: env.TSA_URL, DEV_PKI_DIR: env.DEV_PKI_DIR });
  return urls;
}

export type InfraPorts = {
  nats: number;
  redis: number;
  mongo: number;
  s3: number;
  s3Console: number;
  smtp: number;
  mailpit: number;
  /** litewitness (a free one when not given). */
  witness?: number;
  /** certomancer's TSA (a free one when not given). */
  tsa?: number;
  /** PostgreSQL under FerretDB (a free one when not given). */
  postgres?: number;
};

export const binDir = () => process.env.SIGNET_BIN ?? join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin');

function which(name: string, candidates: string[]): string {
  for (const c of candidates) if (existsSync(c)) return c;
  throw new Error(`${name} not found (looked in ${candidates.join(', ')}); run scripts/install.sh`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * n different free ports: all n are held open at once before any is released, so no two are the same
 * (freePort called n times may hand back a port it gave a moment ago that nothing listens on yet).
 */
export async function distinctFreePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const srv = createServer();
          srv.unref();
          srv.on('error', reject);
          srv.listen(0, '127.0.0.1', () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => {
    const addr = srv.address();
    return typeof addr === 'object' && addr ? addr.port : 0;
  });
  await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  return ports;
}
export async function freePorts(): Promise<InfraPorts> {
  const ports: number[] = [];
  while (ports.length < 7) {
    const p = await freePort();
    if (!ports.includes(p)) ports.push(p);
  }
  const [nats, redis, mongo, s3, s3Console, smtp, mailpit] = ports as [number, number, number, number, number, number, number];
  return { nats, redis, mongo, s3, s3Console, smtp, mailpit };
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function waitFor(name: string, probe: () => Promise<boolean>, proc: ChildProcess | undefined, timeoutMs = 60_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (proc && proc.exitCode !== null) throw new Error(`${name} exited with code ${proc.exitCode}; see its log`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} did not become ready in ${timeoutMs} ms`);
}

const httpOk = (url: string) => async () => (await fetch(url)).ok;

export type InfraProcess = { name: string; pid: number; proc: ChildProcess };

/**
 * Starts every server under dataDir. With detached, the processes outlive this one (the local
 * stack) and their pids are returned for the stop command; otherwise stop() ends them.
 */
export async function startLocalInfra(opts: {
  dataDir: string;
  ports?: InfraPorts;
  detached?: boolean;
  s3Secret?: string;
  /** SIGNET_STORE's choice unless given */
  store?: StoreBackend;
}) {
  const ports = opts.ports ?? (await freePorts());
  const postgresPort = ports.postgres ?? (await freePort());
  const tsaPort = ports.tsa ?? (await freePort());
  const witnessPort = ports.witness ?? (await freePort());
  let witness: Awaited<ReturnType<typeof startWitness>> | undefined;
  let storePostgresUrl: string | undefined;
  const bin = binDir();
  const logs = join(opts.dataDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const s3User = 'signet';
  const s3Secret = opts.s3Secret ?? 'signet-local-s3-secret';
  const procs: InfraProcess[] = [];

  const run = (
    name: string,
    cmd: string,
    args: string[],
    env: NodeJS.ProcessEnv = {},
    as: { uid?: number; gid?: number } = {},
  ) => {
    const out = openSync(join(logs, `${name}.log`), 'a');
    const proc = spawn(cmd, args, {
      ...as,
      env: { ...process.env, ...env },
      stdio: ['ignore', out, out],
      detached: opts.detached ?? false,
    });
    closeSync(out);
    if (opts.detached) proc.unref();
    procs.push({ name, pid: proc.pid ?? -1, proc });
    return proc;
  };
  const dir = (d: string) => {
    const p = join(opts.dataDir, d);
    mkdirSync(p, { recursive: true });
    return p;
  };

  try {
    const nats = run('nats', which('nats-server', [join(bin, 'nats-server')]), [
      '-js',
      '-a',
      '127.0.0.1',
      '-p',
      String(ports.nats),
      '-sd',
      dir('nats'),
    ]);
    const redis = run('redis', which('redis-server', ['/usr/bin/redis-server', join(bin, 'redis-server')]), [
      '--port',
      String(ports.redis),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir('redis'),
    ]);
    const store = await startStore({
      backend: opts.store ?? storeBackend(),
      dataDir: opts.dataDir,
      ferretdb: which('ferretdb', [join(bin, 'ferretdb')]),
      mongoPort: ports.mongo,
      postgresPort,
      // The stack keeps its data; the tests' is thrown away.
      durable: opts.detached ?? false,
      run: (name, cmd, args, { env, ...as } = {}) => run(name, cmd, args, env, as),
      waitFor: (name, probe, proc) => waitFor(name, probe, proc),
    });
    if (store.note) console.log(store.note);
    storePostgresUrl = store.postgresUrl;
    const ferret = store.procs.at(-1)!;
    const minio = run(
      'minio',
      which('minio', [join(bin, 'minio')]),
      [
        'server',
        dir('minio'),
        '--address',
        `127.0.0.1:${ports.s3}`,
        '--console-address',
        `127.0.0.1:${ports.s3Console}`,
        '--quiet',
      ],
      { MINIO_ROOT_USER: s3User, MINIO_ROOT_PASSWORD: s3Secret, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    );
    const tsa = run('tsa', 'bash', [join(import.meta.dirname, '../../scripts/tsa.sh'), 'serve', dir('tsa'), String(tsaPort)]);
    const mailpit = run('mailpit', which('mailpit', [join(bin, 'mailpit')]), [
      '--smtp',
      `127.0.0.1:${ports.smtp}`,
      '--listen',
      `127.0.0.1:${ports.mailpit}`,
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      '--disable-version-check',
      '--max',
      '5000',
    ]);
    await Promise.all([
      waitFor('nats', () => tcpOpen(ports.nats), nats),
      waitFor('redis', () => tcpOpen(ports.redis), redis),
      waitFor('ferretdb', () => tcpOpen(ports.mongo), ferret),
      waitFor('minio', httpOk(`http://127.0.0.1:${ports.s3}/minio/health/ready`), minio),
      waitFor('mailpit', httpOk(`http://127.0.0.1:${ports.mailpit}/api/v1/info`), mailpit),
      // The dev CA's keys and certificates are made at its first start; its venv built if missing.
      waitFor('tsa', () => tcpOpen(tsaPort), tsa, 300_000),
    ]);
    // The witness of the ledger's checkpoints; whoever starts a ledger registers its log (witness.ts).
    const w = dir('witness');
    witness = await startWitness({ dir: w, port: witnessPort, name: 'witness.signet.local', logs, detached: opts.detached });
    procs.push(...witness.procs);
  } catch (err) {
    for (const p of procs) p.proc.kill('SIGKILL');
    throw err;
  }

  const urls: InfraUrls = {
    MONGO_URL: `mongodb://127.0.0.1:${ports.mongo}/`,
    NATS_URL: `nats://127.0.0.1:${ports.nats}`,
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
    S3_ACCESS_KEY: s3User,
    S3_SECRET_KEY: s3Secret,
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    MAILPIT_URL: `http://127.0.0.1:${ports.mailpit}`,
    TSA_URL: `http://127.0.0.1:${tsaPort}/signet-dev/tsa/tsa`,
    DEV_PKI_DIR: join(opts.dataDir, 'tsa'),
    WITNESS_URL: witness.info.url,
    WITNESS_VERIFIER_KEY: witness.info.verifierKey,
    WITNESS_DB: witness.info.db,
    ...(storePostgresUrl ? { STORE_POSTGRES_URL: storePostgresUrl } : {}),
  };
  return {
    urls,
    ports: { ...ports, postgres: postgresPort, witness: witnessPort },
    procs,
    async stop() {
      await Promise.all(
        procs.map(
          (p) =>
            new Promise<void>((resolve) => {
              if (p.proc.exitCode !== null) return resolve();
              p.proc.once('exit', () => resolve());
              // PostgreSQL's SIGTERM waits for its clients to leave; SIGINT is its fast shutdown.
              p.proc.kill(p.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
              setTimeout(() => p.proc.kill('SIGKILL'), 5000).unref();
            }),
        ),
      );
    },
  };
}
