/**
 * Which tfjs backend computes the analysis, decided once at start.
 *
 * `auto` takes the fastest backend that actually works here:
 * 1. `node-gpu` — `@tensorflow/tfjs-node-gpu` loads AND a GPU is visible;
 * 2. `node` — `@tensorflow/tfjs-node` loads (tfjs calls this backend `tensorflow`);
 * 3. `wasm` — `@tensorflow/tfjs-backend-wasm` (always installed). The native packages load only
 *    where `scripts/tfjs-native.sh` built their binding (pnpm never runs their install script, see
 *    the root package.json); elsewhere requiring them throws and `auto` falls back to wasm.
 *
 * An explicit `TF_BACKEND` that cannot be used fails start with one line naming the variable and
 * the load error. The decision itself is pure (probes are injected) so it is unit-tested.
 * `planBackend` also sizes TensorFlow's thread pools (before anything loads libtensorflow) and the
 * detector pool; `announceBackend` says what was chosen in one log line and on /metrics.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Logger } from '@signet/kit';
import { autoWorkers, usableCores } from './workers.js';

export const TF_BACKEND_CHOICES = ['auto', 'node-gpu', 'node', 'wasm', 'cpu'] as const;
export type TfBackendChoice = (typeof TF_BACKEND_CHOICES)[number];
/** A resolved backend (what `auto` becomes). */
export type TfBackend = Exclude<TfBackendChoice, 'auto'>;

/** The npm package that provides each backend. */
export const BACKEND_PACKAGE: Record<TfBackend, string> = {
  'node-gpu': '@tensorflow/tfjs-node-gpu',
  node: '@tensorflow/tfjs-node',
  wasm: '@tensorflow/tfjs-backend-wasm',
  cpu: '@tensorflow/tfjs-backend-cpu',
};

/** tfjs's own name of the backend each choice computes on (what `tf.getBackend()` says). */
export const TFJS_NAME: Record<TfBackend, 'tensorflow' | 'wasm' | 'cpu'> = {
  'node-gpu': 'tensorflow',
  node: 'tensorflow',
  wasm: 'wasm',
  cpu: 'cpu',
};

export const isNative = (b: TfBackend): boolean => TFJS_NAME[b] === 'tensorflow';

export interface BackendProbes {
  /** Try to load a package: null when it loads, otherwise the (one-line) reason it does not. */
  load(pkg: string): string | null;
  /** Evidence that a GPU is visible (e.g. `/dev/nvidia0`), or null when none is. */
  gpu(): string | null;
}

export interface BackendDecision {
  backend: TfBackend;
  /** Why this backend: for `auto`, what each faster backend failed on. */
  reason: string;
}

export class BackendUnavailableError extends Error {
  constructor(choice: TfBackend, why: string) {
    super(`TF_BACKEND=${choice} cannot be used: ${why}`);
    this.name = 'BackendUnavailableError';
  }
}

const NO_GPU = 'no GPU visible (no entry in /proc/driver/nvidia/gpus, no /dev/nvidia0)';

/** Decide the backend for a configured choice. Throws BackendUnavailableError for an unusable explicit choice. */
export function chooseBackend(choice: TfBackendChoice, probes: BackendProbes): BackendDecision {
  const tryLoad = (b: TfBackend): string | null => {
    const err = probes.load(BACKEND_PACKAGE[b]);
    return err === null ? null : `${b === 'node-gpu' ? 'tfjs-node-gpu' : 'tfjs-node'}: ${err}`;
  };
  switch (choice) {
    case 'wasm':
    case 'cpu':
      return { backend: choice, reason: 'TF_BACKEND' };
    case 'node': {
      const err = probes.load(BACKEND_PACKAGE.node);
      if (err !== null) throw new BackendUnavailableError('node', `${BACKEND_PACKAGE.node} does not load: ${err}`);
      return { backend: 'node', reason: 'TF_BACKEND' };
    }
    case 'node-gpu': {
      // A GPU deployment that silently computed on the CPU would be a worse surprise than a failed start.
      const gpu = probes.gpu();
      if (gpu === null) throw new BackendUnavailableError('node-gpu', NO_GPU);
      const err = probes.load(BACKEND_PACKAGE['node-gpu']);
      if (err !== null) throw new BackendUnavailableError('node-gpu', `${BACKEND_PACKAGE['node-gpu']} does not load: ${err}`);
      return { backend: 'node-gpu', reason: `TF_BACKEND (${gpu})` };
    }
    case 'auto': {
      const skipped: string[] = [];
      const gpu = probes.gpu();
      if (gpu === null) skipped.push(`tfjs-node-gpu: ${NO_GPU}`);
      else {
        const err = tryLoad('node-gpu');
        if (err === null) return { backend: 'node-gpu', reason: `auto: tfjs-node-gpu loads and ${gpu}` };
        skipped.push(err);
      }
      const err = tryLoad('node');
      if (err === null) return { backend: 'node', reason: `auto: tfjs-node loads; ${skipped.join('; ')}` };
      skipped.push(err);
      return { backend: 'wasm', reason: `auto: ${skipped.join('; ')}` };
    }
  }
}

/** First line of an error message (native load errors carry a multi-line "please run …" hint). */
export function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!.trim();
}

const require = createRequire(import.meta.url);

/** The real probes: `require` the package from this service, look for NVIDIA devices. */
export const systemProbes: BackendProbes = {
  load(pkg) {
    try {
      require(pkg);
      return null;
    } catch (e) {
      return firstLine(e);
    }
  },
  gpu() {
    try {
      const gpus = readdirSync('/proc/driver/nvidia/gpus');
      if (gpus.length > 0) return `GPU ${gpus[0]} in /proc/driver/nvidia/gpus`;
    } catch {
      // no NVIDIA driver in this kernel / container
    }
    return existsSync('/dev/nvidia0') ? '/dev/nvidia0 exists' : null;
  },
};

/** Decide the backend on this machine. */
export function resolveBackend(choice: TfBackendChoice, probes: BackendProbes = systemProbes): BackendDecision {
  return chooseBackend(choice, probes);
}

// ------------------------------------------------------------------------------------------------
// Threads, and the one start line

/** TensorFlow's thread-pool variables (read by libtensorflow once, when it creates its devices). */
export const TF_THREAD_VARS = ['TF_NUM_INTRAOP_THREADS', 'TF_NUM_INTEROP_THREADS', 'TF_OVERRIDE_GLOBAL_THREADPOOL'] as const;

/**
 * TensorFlow's thread pools for a native backend on `cores` usable cores (the cgroup quota counted;
 * libtensorflow alone counts every core of the node) and `workers` detector threads: each worker's
 * TensorFlow context gets its own intra-op pool (`TF_OVERRIDE_GLOBAL_THREADPOOL`; without it every
 * context shares one process-wide pool) of cores ÷ workers threads, and one inter-op thread per
 * worker (the inter-op pool stays process-wide, and a model run as a session (graph-sessions.ts)
 * executes on it: with one thread the workers' sessions ran one at a time). Measured here
 * (docs/decisions.md, "Verdict speed"): eager, two workers with a pool of one thread each analysed
 * a genuine capture in 0.80–0.85× the wall time of two workers on one shared pool of two threads,
 * and with less CPU (the shared pool's threads spin while they wait); one shared one-thread pool
 * serialised the workers; with sessions, two inter-op threads instead of one took 0.70–0.75× the
 * wall time. With no worker (detection in the main thread, or a GPU) the one context keeps a pool
 * of `cores` threads. Variables already set win.
 */
export function tfThreadEnv(
  cores: number,
  workers: number,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const c = Math.max(1, cores);
  const want: Record<(typeof TF_THREAD_VARS)[number], string> = {
    TF_NUM_INTRAOP_THREADS: String(workers > 0 ? Math.max(1, Math.floor(c / workers)) : c),
    TF_NUM_INTEROP_THREADS: String(Math.max(1, workers)),
    TF_OVERRIDE_GLOBAL_THREADPOOL: workers > 0 ? '1' : '0',
  };
  const out: Record<string, string> = {};
  for (const k of TF_THREAD_VARS) out[k] = env[k] ?? want[k];
  return out;
}

export interface BackendPlan extends BackendDecision {
  /** detector worker threads (0 = detect in the main thread) */
  workers: number;
  /** TF_* thread variables in effect (empty unless the backend is native) */
  threads: Record<string, string>;
}

/**
 * Decide the backend and the detector threads, having first set TensorFlow's thread variables in
 * `env` (the process environment, from config.ts: libtensorflow reads it once, when the probe loads it).
 * Also turns libtensorflow's INFO lines off unless TF_CPP_MIN_LOG_LEVEL is set (they are not JSON).
 */
export function planBackend(
  choice: TfBackendChoice,
  workers: 'auto' | number,
  deps: { probes?: BackendProbes; env: Record<string, string | undefined>; cores?: number },
): BackendPlan {
  const env = deps.env;
  const cores = deps.cores ?? usableCores();
  // the thread variables must be set before the probe loads libtensorflow, so before the backend is
  // known: sized for the CPU backend's detector threads (a GPU backend starts none and does not use them)
  const cpuWorkers = workers === 'auto' ? autoWorkers('node', { cores, cpuMax: null }) : workers;
  const threads = tfThreadEnv(cores, cpuWorkers, env);
  Object.assign(env, threads);
  env.TF_CPP_MIN_LOG_LEVEL ??= '1';
  const d = chooseBackend(choice, deps.probes ?? systemProbes);
  const w = workers === 'auto' ? autoWorkers(d.backend, { cores, cpuMax: null }) : workers;
  return { ...d, workers: w, threads: isNative(d.backend) ? threads : {} };
}

/** What computes, as loaded (models.ts): the package and whether tfjs-node placed ops on a GPU. */
export interface LoadedBackend {
  name: TfBackend;
  package: string;
  version: string;
  device: 'gpu' | 'cpu';
}

/** The gauge the backend is announced on (structurally, so tests can hand in a registry's gauge). */
export interface BackendInfoGauge {
  set(labels: { backend: string; tfjs: string; device: string }, value: number): void;
}

/**
 * The one start line saying what computes, and the gauge. `auto` ending on wasm because a native
 * package did not load is a warning (the install step failed or was skipped), with the reason.
 */
export function announceBackend(
  plan: BackendPlan,
  loaded: LoadedBackend,
  out: { logger: Pick<Logger, 'info' | 'warn'>; gauge: BackendInfoGauge },
): void {
  const tfjs = TFJS_NAME[plan.backend];
  out.gauge.set({ backend: plan.backend, tfjs, device: loaded.device }, 1);
  const fields = {
    backend: plan.backend,
    tfjs,
    device: loaded.device,
    package: `${loaded.package}@${loaded.version}`,
    workers: plan.workers,
    ...(isNative(plan.backend) ? { threads: plan.threads } : {}),
    reason: plan.reason,
  };
  const fellBack = plan.reason.startsWith('auto:') && !isNative(plan.backend);
  if (fellBack)
    out.logger.warn(fields, `tfjs backend ${tfjs}: no native TensorFlow binding loads (scripts/tfjs-native.sh builds it)`);
  else out.logger.info(fields, `tfjs backend ${tfjs} on ${loaded.device}`);
}
