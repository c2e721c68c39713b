import { describe, expect, it } from 'vitest';
import { biometricsConfigSchema } from '../config.js';
import { autoWorkers, cgroupCpus, usableCores } from './workers.js';

describe('ANALYSIS_WORKERS=auto', () => {
  it('reads the cgroup v2 CPU quota', () => {
    expect(cgroupCpus('200000 100000\n')).toBe(2);
    expect(cgroupCpus('150000 100000')).toBe(2);
    expect(cgroupCpus('50000 100000')).toBe(1);
    expect(cgroupCpus('max 100000')).toBeNull();
    expect(cgroupCpus(null)).toBeNull();
    expect(cgroupCpus('garbage')).toBeNull();
  });

  it('starts one thread per usable core with wasm, bounded by the quota and the cap', () => {
    expect(autoWorkers('wasm', { cores: 2, cpuMax: 'max 100000' })).toBe(2);
    expect(autoWorkers('wasm', { cores: 16, cpuMax: '400000 100000' })).toBe(4);
    expect(autoWorkers('wasm', { cores: 64, cpuMax: null })).toBe(8);
    expect(autoWorkers('cpu', { cores: 4, cpuMax: null })).toBe(4);
  });

  it('starts one per usable core with tfjs-node too, none on one core or with tfjs-node-gpu', () => {
    expect(autoWorkers('node', { cores: 2, cpuMax: null })).toBe(2);
    expect(autoWorkers('node', { cores: 16, cpuMax: '300000 100000' })).toBe(3);
    expect(autoWorkers('wasm', { cores: 1, cpuMax: null })).toBe(0);
    expect(autoWorkers('wasm', { cores: 8, cpuMax: '100000 100000' })).toBe(0);
    expect(autoWorkers('node', { cores: 1, cpuMax: null })).toBe(0);
    expect(autoWorkers('node-gpu', { cores: 8, cpuMax: null })).toBe(0);
  });

  it('counts the usable cores from the CPU quota', () => {
    expect(usableCores({ cores: 16, cpuMax: '250000 100000' })).toBe(3);
    expect(usableCores({ cores: 2, cpuMax: 'max 100000' })).toBe(2);
    expect(usableCores({ cores: 0, cpuMax: null })).toBe(1);
  });

  it('is the default, and a number still overrides it', () => {
    const w = biometricsConfigSchema.shape.ANALYSIS_WORKERS;
    expect(w.parse(undefined)).toBe('auto');
    expect(w.parse('auto')).toBe('auto');
    expect(w.parse('3')).toBe(3);
    expect(w.parse('0')).toBe(0);
    expect(w.safeParse('many').success).toBe(false);
    expect(w.safeParse('17').success).toBe(false);
  });
});
