import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { biometricsConfigSchema } from '../config.js';
import { startBiometrics } from '../app.js';
import {
  BACKEND_PACKAGE,
  BackendUnavailableError,
  chooseBackend,
  resolveBackend,
  systemProbes,
  type BackendProbes,
  type TfBackendChoice,
} from './backend.js';
import { packageDir } from './models.js';

const UNBUILT = 'The Node.js native addon module (tfjs_binding.node) can not be found at path: /x/tfjs_binding.node.';

/** Probes with a fixed world: which packages load (else their error) and whether a GPU is visible. */
function world(opts: { gpu?: boolean; node?: boolean; nodeGpu?: boolean }): BackendProbes & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    load(pkg) {
      loaded.push(pkg);
      const ok = pkg === BACKEND_PACKAGE.node ? opts.node : pkg === BACKEND_PACKAGE['node-gpu'] ? opts.nodeGpu : true;
      return ok ? null : UNBUILT;
    },
    gpu: () => (opts.gpu ? '/dev/nvidia0 exists' : null),
  };
}

describe('chooseBackend (injected probes)', () => {
  it('auto takes node-gpu only when tfjs-node-gpu loads AND a GPU is visible', () => {
    expect(chooseBackend('auto', world({ gpu: true, nodeGpu: true, node: true }))).toEqual({
      backend: 'node-gpu',
      reason: 'auto: tfjs-node-gpu loads and /dev/nvidia0 exists',
    });
    // no GPU: tfjs-node-gpu is not even loaded (it would compute on the CPU)
    const noGpu = world({ gpu: false, nodeGpu: true, node: true });
    const d = chooseBackend('auto', noGpu);
    expect(d.backend).toBe('node');
    expect(d.reason).toContain('tfjs-node-gpu: no GPU visible');
    expect(noGpu.loaded).toEqual([BACKEND_PACKAGE.node]);
  });

  it('auto falls back from a GPU whose package does not load to tfjs-node, then to wasm, recording why', () => {
    const d1 = chooseBackend('auto', world({ gpu: true, nodeGpu: false, node: true }));
    expect(d1.backend).toBe('node');
    expect(d1.reason).toBe(`auto: tfjs-node loads; tfjs-node-gpu: ${UNBUILT}`);
    const d2 = chooseBackend('auto', world({ gpu: false, nodeGpu: false, node: false }));
    expect(d2.backend).toBe('wasm');
    expect(d2.reason).toContain(`tfjs-node: ${UNBUILT}`);
    expect(d2.reason).toContain('tfjs-node-gpu: no GPU visible');
  });

  it('wasm and cpu need no probe', () => {
    for (const b of ['wasm', 'cpu'] as const) {
      const w = world({});
      expect(chooseBackend(b, w).backend).toBe(b);
      expect(w.loaded).toEqual([]);
    }
  });

  it('an explicit native choice that cannot load fails with one line naming TF_BACKEND and the load error', () => {
    const cases: [TfBackendChoice, Parameters<typeof world>[0], RegExp][] = [
      [
        'node',
        { node: false },
        /^TF_BACKEND=node cannot be used: @tensorflow\/tfjs-node does not load: The Node\.js native addon/,
      ],
      ['node-gpu', { gpu: false, nodeGpu: true }, /^TF_BACKEND=node-gpu cannot be used: no GPU visible/],
      [
        'node-gpu',
        { gpu: true, nodeGpu: false },
        /^TF_BACKEND=node-gpu cannot be used: @tensorflow\/tfjs-node-gpu does not load: /,
      ],
    ];
    for (const [choice, w, msg] of cases) {
      let err: unknown;
      try {
        chooseBackend(choice, world(w));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BackendUnavailableError);
      expect((err as Error).message).toMatch(msg);
      expect((err as Error).message).not.toContain('\n');
    }
    expect(chooseBackend('node', world({ node: true })).backend).toBe('node');
    expect(chooseBackend('node-gpu', world({ gpu: true, nodeGpu: true })).backend).toBe('node-gpu');
  });

  it('TF_BACKEND defaults to auto and accepts only the five names', () => {
    const t = biometricsConfigSchema.shape.TF_BACKEND;
    expect(t.parse(undefined)).toBe('auto');
    for (const b of ['auto', 'node-gpu', 'node', 'wasm', 'cpu']) expect(t.parse(b)).toBe(b);
    expect(() => t.parse('gpu')).toThrow();
  });
});

/** Whether a native package's binding was built here (independent of the require-based probe). */
function built(pkg: string): boolean {
  return existsSync(path.join(packageDir(pkg), 'lib', `napi-v${process.versions.napi}`, 'tfjs_binding.node'));
}

describe('this machine (optional native packages installed; their libtensorflow download cannot run here)', () => {
  it('both native packages are installed as optional dependencies', () => {
    expect(existsSync(path.join(packageDir(BACKEND_PACKAGE.node), 'package.json'))).toBe(true);
    expect(existsSync(path.join(packageDir(BACKEND_PACKAGE['node-gpu']), 'package.json'))).toBe(true);
  });

  it('auto resolves to the backend that really loads, and says why', () => {
    const gpu = systemProbes.gpu();
    const d = resolveBackend('auto');
    if (gpu !== null && built(BACKEND_PACKAGE['node-gpu'])) expect(d.backend).toBe('node-gpu');
    else if (built(BACKEND_PACKAGE.node)) expect(d.backend).toBe('node');
    else {
      // the state of a fresh clone here: package directories without their native binding
      expect(d.backend).toBe('wasm');
      expect(d.reason).toMatch(/tfjs-node: The Node\.js native addon module \(tfjs_binding\.node\) can not be found/);
      if (gpu === null) expect(d.reason).toContain('tfjs-node-gpu: no GPU visible');
    }
  });

  it.runIf(!built(BACKEND_PACKAGE.node))('TF_BACKEND=node fails the start before anything connects', async () => {
    const cfg = parseConfig(biometricsConfigSchema, {
      TF_BACKEND: 'node',
      GRPC_PORT: '1',
      OPS_PORT: '2',
      MONGO_URL: 'mongodb://127.0.0.1:1/x',
      NATS_URL: 'nats://127.0.0.1:1',
      S3_ENDPOINT: 'http://127.0.0.1:1',
      S3_ACCESS_KEY: 'key',
      S3_SECRET_KEY: 'secret-secret',
      LOG_LEVEL: 'silent',
    });
    await expect(startBiometrics(cfg)).rejects.toThrow(
      /^TF_BACKEND=node cannot be used: @tensorflow\/tfjs-node does not load: The Node\.js native addon module/,
    );
  });
});
