/**
 * What the benchmarks need of processes: starting a service as its own process, and reading what a
 * process uses (RSS, CPU) from /proc, with the machine's load average to print beside every figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '../..');

/**
 * BENCH_BUILT=1: the services' built code, as the images run it (`node dist/main.js`; run `pnpm build`
 * first). By default they run from their TypeScript sources under tsx, where a formatted stack costs a
 * source-map lookup. Either way not with NODE_ENV=production, which refuses the benchmarks' settings
 * (no reference face check: no biometrics service runs in them).
 */
export const BUILT = process.env.BENCH_BUILT === '1';

export type ServiceProcess = { name: string; proc: ChildProcess; pid: number };

/**
 * Starts `services/<name>` with `env` over the inherited environment. Its output goes to
 * `<logDir>/<name>.log` when a folder is given; otherwise stdout is dropped and stderr shown.
 * BENCH_NODE_ARGS adds node flags (`--cpu-prof --cpu-prof-dir=<dir>`: a profile per service, written on
 * stop; `--trace-gc`).
 */
export function startService(name: string, env: Record<string, string>, logDir?: string): ServiceProcess {
  const log = logDir ? openSync(join(logDir, `${name}.log`), 'a') : undefined;
  const proc = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...(BUILT
        ? [join(root, `services/${name}/dist/main.js`)]
        : ['--conditions=@signet/source', '--import', 'tsx', join(root, `services/${name}/src/main.ts`)]),
    ],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: log === undefined ? ['ignore', 'ignore', 'inherit'] : ['ignore', log, log],
    },
  );
  if (log !== undefined) closeSync(log);
  return { name, proc, pid: proc.pid! };
}

/** Which way the services run, for the printed header. */
export const servicesMode = () => (BUILT ? 'services built (node dist/main.js)' : 'services from source under tsx');

/** Polls `probe` until it answers true (errors count as not yet). */
export async function waitFor(probe: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    try {
      if (await probe()) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready in ${ms} ms`);
}

export const waitHealthy = (url: string, ms = 60_000) => waitFor(async () => (await fetch(url)).ok, url, ms);

/** Resident memory of a process, 0 once it has exited. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** User and system CPU of /proc/<pid>/stat's fields after the command name, in seconds, with the parent's pid. */
function stat(pid: number | string): { ppid: number; cpu: number } | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 };
  } catch {
    return undefined; // gone
  }
}

/** CPU seconds (user + system) a process has used so far. */
export const cpuSeconds = (pid: number): number => stat(pid)?.cpu ?? 0;

/** CPU seconds of a process and its direct children (PostgreSQL's backends are the postmaster's children). */
export function treeCpuSeconds(pid: number): number {
  let total = cpuSeconds(pid);
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = stat(d);
    if (s?.ppid === pid) total += s.cpu;
  }
  return total;
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
/** The p-th percentile of sorted values. */
export const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
