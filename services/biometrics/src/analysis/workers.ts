/**
 * How many detector worker threads `ANALYSIS_WORKERS=auto` starts: one per core the process may
 * use, with wasm and cpu (whose kernels run on one core per thread) and with tfjs-node (measured:
 * one worker per core on TensorFlow's shared intra-op pool analyses more frames per second than one
 * detecting thread; docs/decisions.md); none with tfjs-node-gpu, whose work runs on the GPU.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { TfBackend } from './backend.js';

/** Cores granted by a cgroup v2 CPU quota (`cpu.max` = "<quota> <period>" or "max <period>"), if any. */
export function cgroupCpus(cpuMax: string | null): number | null {
  if (!cpuMax) return null;
  const [quota, period] = cpuMax.trim().split(/\s+/);
  if (!quota || quota === 'max' || !period) return null;
  const q = Number(quota);
  const p = Number(period);
  if (!(q > 0) || !(p > 0)) return null;
  return Math.max(1, Math.ceil(q / p));
}

function readCpuMax(): string | null {
  try {
    return readFileSync('/sys/fs/cgroup/cpu.max', 'utf8');
  } catch {
    return null;
  }
}

/** Cores this process may use: `os.availableParallelism()` lowered to the cgroup v2 CPU quota. */
export function usableCores(
  probe: { cores: number; cpuMax: string | null } = { cores: availableParallelism(), cpuMax: readCpuMax() },
): number {
  return Math.max(1, Math.min(probe.cores, cgroupCpus(probe.cpuMax) ?? probe.cores));
}

/** Worker threads for `auto`: min(cores, CPU quota), at most `max`; 0 for node-gpu. */
export function autoWorkers(
  backend: TfBackend,
  probe: { cores: number; cpuMax: string | null } = { cores: availableParallelism(), cpuMax: readCpuMax() },
  max = 8,
): number {
  if (backend === 'node-gpu') return 0;
  const quota = cgroupCpus(probe.cpuMax);
  const n = Math.min(probe.cores, quota ?? probe.cores, max);
  // one core is a single thread either way: detect in the main thread, no pool
  return n >= 2 ? n : 0;
}
