/**
 * Which tfjs backend computes the analysis, decided once at start.
 *
 * `auto` takes the fastest backend that actually works here:
 * 1. `node-gpu` — `@tensorflow/tfjs-node-gpu` loads AND a GPU is visible;
 * 2. `node` — `@tensorflow/tfjs-node` loads;
 * 3. `wasm` — `@tensorflow/tfjs-backend-wasm` (always installed; the default on machines where the
 *    native packages' install script could not download libtensorflow, which leaves the package
 *    directory without its native binding, so requiring it throws).
 *
 * An explicit `TF_BACKEND` that cannot be used fails start with one line naming the variable and
 * the load error. The decision itself is pure (probes are injected) so it is unit-tested.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

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
