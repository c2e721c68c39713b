/**
 * The whole stack as separate processes, each service in `replicas` copies on its own ports and the
 * same databases, callers dialling every replica (an `ipv4:` list, round-robin), so a test can kill
 * one replica with SIGKILL — no shutdown hook runs, as when a node dies — and start it again.
 * Services run from source (tsx), like the in-process harness; logs go to `logsDir`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { distinctFreePorts } from './local-infra.js';
import { BACKEND, clearBusOnce, infra, stackEnvironment, testSecrets, type ServiceName } from './services.js';

const root = join(import.meta.dirname, '../..');
const EVERY: ServiceName[] = [...BACKEND, 'gateway'];

type Replica = { name: ServiceName; k: number; env: Record<string, string>; ops: number; child: ChildProcess | null };

async function ready(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** `services`: which to run (default all; a test of one service's recovery needs only its callers and callees). */
export async function startProcessStack(opts: { replicas: number; env?: Record<string, string>; services?: ServiceName[] }) {
  const ALL = opts.services ?? EVERY;
  await clearBusOnce(infra().NATS_URL);
  const run = randomBytes(4).toString('hex');
  const logsDir = mkdtempSync(join(tmpdir(), 'signet-procs-'));
  const ports = await distinctFreePorts(2 * ALL.length * opts.replicas);
  const at = (n: ServiceName, k: number) => {
    const base = 2 * (ALL.indexOf(n) * opts.replicas + k);
    return { main: ports[base]!, ops: ports[base + 1]! };
  };
  const ks = Array.from({ length: opts.replicas }, (_, k) => k);
  const gatewayUrls = ks.map((k) => `http://127.0.0.1:${at('gateway', k).main}`);
  const common = stackEnvironment({
    run,
    gatewayUrl: gatewayUrls[0]!,
    // A service not run here is dialled nowhere (its callers fail those calls, as when it is down).
    addr: (n) => (ALL.includes(n) ? `ipv4:${ks.map((k) => `127.0.0.1:${at(n, k).main}`).join(',')}` : '127.0.0.1:1'),
    biometrics: ALL.includes('biometrics'),
    secrets: testSecrets(),
    env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...opts.env },
  });
  const replicas: Replica[] = ALL.flatMap((name) =>
    ks.map((k) => {
      const p = at(name, k);
      const own: Record<string, string> =
        name === 'gateway'
          ? { HTTP_PORT: String(p.main), OPS_PORT: String(p.ops) }
          : { GRPC_PORT: String(p.main), OPS_PORT: String(p.ops), MONGO_DB: `t_${run}_${name}` };
      return { name, k, env: { ...common, ...own }, ops: p.ops, child: null };
    }),
  );
  const find = (name: ServiceName, k: number) => {
    const r = replicas.find((x) => x.name === name && x.k === k);
    if (!r) throw new Error(`no replica ${k} of ${name}`);
    return r;
  };
  const launch = async (r: Replica) => {
    const log = openSync(join(logsDir, `${r.name}-${r.k}.log`), 'a');
    r.child = spawn(
      process.execPath,
      ['--conditions=@signet/source', '--import', 'tsx', join(root, 'services', r.name, 'src/main.ts')],
      { cwd: root, env: r.env, stdio: ['ignore', log, log] },
    );
    closeSync(log);
    await ready(`http://127.0.0.1:${r.ops}/readyz`, 180_000);
  };
  const stack = {
    run,
    logsDir,
    gatewayUrls,
    dbs: Object.fromEntries(BACKEND.map((n) => [n, `t_${run}_${n}`])) as Record<string, string>,
    /** SIGKILL: the replica gets no chance to finish, ack or close anything. */
    async kill(name: ServiceName, k: number) {
      const r = find(name, k);
      const child = r.child;
      r.child = null;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((res) => child.once('exit', res));
      child.kill('SIGKILL');
      await exited;
    },
    /** Starts a killed replica again on its ports; resolves once it is ready. */
    async restart(name: ServiceName, k: number) {
      await launch(find(name, k));
    },
    async stop() {
      await Promise.all(
        replicas.map(async (r) => {
          const child = r.child;
          r.child = null;
          if (!child || child.exitCode !== null) return;
          const exited = new Promise((res) => child.once('exit', res));
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(t);
        }),
      );
    },
  };
  // A test worker that dies (an unhandled error) never reaches afterAll: its replicas go with it.
  process.once('exit', () => {
    for (const r of replicas) r.child?.kill('SIGKILL');
  });
  try {
    // Backends first (each replica set at once), then the gateways.
    for (const name of ALL) await Promise.all(ks.map((k) => launch(find(name, k))));
  } catch (err) {
    await stack.stop();
    throw new Error(`${(err as Error).message} (logs in ${logsDir})`);
  }
  return stack;
}
