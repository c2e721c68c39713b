import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { biometricsConfigSchema } from '../config.js';
import { startBiometrics } from '../app.js';
import {
  announceBackend,
  BACKEND_PACKAGE,
  BackendUnavailableError,
  chooseBackend,
  planBackend,
  resolveBackend,
  systemProbes,
  tfThreadEnv,
  type BackendPlan,
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

/** Whether a native package's binding was built here (independent of the require-based probe):
 *  node-pre-gyp puts it in lib/napi-v<N>/ for the highest N-API version the package and Node share. */
function built(pkg: string): boolean {
  const lib = path.join(packageDir(pkg), 'lib');
  return existsSync(lib) && readdirSync(lib).some((d) => existsSync(path.join(lib, d, 'tfjs_binding.node')));
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

describe('planBackend: TensorFlow threads before the probe, then the backend and the detector threads', () => {
  it('gives each detector worker its own intra-op pool of cores ÷ workers threads, and an inter-op thread each', () => {
    const two = { TF_NUM_INTEROP_THREADS: '2', TF_OVERRIDE_GLOBAL_THREADPOOL: '1' };
    expect(tfThreadEnv(2, 2, {})).toEqual({ TF_NUM_INTRAOP_THREADS: '1', ...two });
    expect(tfThreadEnv(8, 2, {})).toEqual({ TF_NUM_INTRAOP_THREADS: '4', ...two });
    expect(tfThreadEnv(3, 2, {})).toEqual({ TF_NUM_INTRAOP_THREADS: '1', ...two });
    expect(tfThreadEnv(0, 2, {})).toEqual({ TF_NUM_INTRAOP_THREADS: '1', ...two });
    expect(tfThreadEnv(4, 4, {})).toEqual({
      TF_NUM_INTRAOP_THREADS: '1',
      TF_NUM_INTEROP_THREADS: '4',
      TF_OVERRIDE_GLOBAL_THREADPOOL: '1',
    });
    // no worker: the main thread's one context keeps a pool of every core
    expect(tfThreadEnv(6, 0, {})).toEqual({
      TF_NUM_INTRAOP_THREADS: '6',
      TF_NUM_INTEROP_THREADS: '1',
      TF_OVERRIDE_GLOBAL_THREADPOOL: '0',
    });
    // the operator's settings win
    expect(tfThreadEnv(8, 2, { TF_NUM_INTRAOP_THREADS: '3', TF_OVERRIDE_GLOBAL_THREADPOOL: '0' })).toEqual({
      TF_NUM_INTRAOP_THREADS: '3',
      TF_NUM_INTEROP_THREADS: '2',
      TF_OVERRIDE_GLOBAL_THREADPOOL: '0',
    });
  });

  it('sets the variables in the environment before any package is loaded', () => {
    const env: Record<string, string | undefined> = {};
    const seen: (string | undefined)[] = [];
    const probes = world({ node: true });
    const load = probes.load.bind(probes);
    probes.load = (pkg) => {
      seen.push(env.TF_NUM_INTRAOP_THREADS);
      return load(pkg);
    };
    const plan = planBackend('auto', 'auto', { probes, env, cores: 2 });
    expect(seen).toEqual(['1']);
    const threads = { TF_NUM_INTRAOP_THREADS: '1', TF_NUM_INTEROP_THREADS: '2', TF_OVERRIDE_GLOBAL_THREADPOOL: '1' };
    expect(plan).toMatchObject({ backend: 'node', workers: 2, threads });
    expect(env).toMatchObject({ ...threads, TF_CPP_MIN_LOG_LEVEL: '1' });
  });

  it('starts one detector worker per core with tfjs-node and wasm, none with tfjs-node-gpu; a number overrides', () => {
    expect(planBackend('node', 'auto', { probes: world({ node: true }), env: {}, cores: 4 })).toMatchObject({
      workers: 4,
      threads: { TF_NUM_INTRAOP_THREADS: '1', TF_OVERRIDE_GLOBAL_THREADPOOL: '1' },
    });
    expect(planBackend('node', 2, { probes: world({ node: true }), env: {}, cores: 4 }).threads).toMatchObject({
      TF_NUM_INTRAOP_THREADS: '2',
    });
    const single = planBackend('node', 0, { probes: world({ node: true }), env: {}, cores: 4 });
    expect(single).toMatchObject({ workers: 0, threads: { TF_NUM_INTRAOP_THREADS: '4', TF_OVERRIDE_GLOBAL_THREADPOOL: '0' } });
    expect(planBackend('auto', 'auto', { probes: world({ gpu: true, nodeGpu: true }), env: {}, cores: 4 })).toMatchObject({
      backend: 'node-gpu',
      workers: 0,
    });
    const wasm = planBackend('auto', 'auto', { probes: world({ node: false }), env: {}, cores: 2 });
    expect(wasm).toMatchObject({ backend: 'wasm', workers: 2, threads: {} });
    const env = { TF_CPP_MIN_LOG_LEVEL: '0', TF_NUM_INTEROP_THREADS: '2' };
    planBackend('auto', 'auto', { probes: world({ node: true }), env, cores: 2 });
    expect(env).toMatchObject({ TF_CPP_MIN_LOG_LEVEL: '0', TF_NUM_INTEROP_THREADS: '2' });
  });
});

/** A logger that keeps every line it is given. */
function lines() {
  const out: { level: 'info' | 'warn'; fields: Record<string, unknown>; msg: string }[] = [];
  return {
    out,
    logger: {
      info: (fields: object, msg: string) => out.push({ level: 'info', fields: fields as Record<string, unknown>, msg }),
      warn: (fields: object, msg: string) => out.push({ level: 'warn', fields: fields as Record<string, unknown>, msg }),
    } as unknown as Parameters<typeof announceBackend>[2]['logger'],
  };
}

describe('announceBackend: one start line and the gauge', () => {
  const loaded = (name: BackendPlan['backend'], device: 'cpu' | 'gpu' = 'cpu') => ({
    name,
    package: BACKEND_PACKAGE[name],
    version: '4.22.0',
    device,
  });

  it('says tensorflow, the device and the threads when tfjs-node loads', () => {
    const l = lines();
    const gauge: [object, number][] = [];
    const plan = planBackend('auto', 'auto', { probes: world({ node: true }), env: {}, cores: 2 });
    announceBackend(plan, loaded('node'), { logger: l.logger, gauge: { set: (lb, v) => gauge.push([lb, v]) } });
    expect(l.out).toHaveLength(1);
    expect(l.out[0]).toMatchObject({
      level: 'info',
      msg: 'tfjs backend tensorflow on cpu',
      fields: { backend: 'node', tfjs: 'tensorflow', device: 'cpu', package: '@tensorflow/tfjs-node@4.22.0', workers: 2 },
    });
    expect(l.out[0]!.fields.threads).toEqual({
      TF_NUM_INTRAOP_THREADS: '1',
      TF_NUM_INTEROP_THREADS: '2',
      TF_OVERRIDE_GLOBAL_THREADPOOL: '1',
    });
    expect(gauge).toEqual([[{ backend: 'node', tfjs: 'tensorflow', device: 'cpu' }, 1]]);
  });

  it('warns once, with the load error, when auto falls back to wasm; an explicit wasm is no warning', () => {
    const l = lines();
    const gauge: [object, number][] = [];
    const plan = planBackend('auto', 'auto', { probes: world({ node: false }), env: {}, cores: 2 });
    announceBackend(plan, loaded('wasm'), { logger: l.logger, gauge: { set: (lb, v) => gauge.push([lb, v]) } });
    expect(l.out).toHaveLength(1);
    expect(l.out[0]!.level).toBe('warn');
    expect(l.out[0]!.msg).toMatch(/^tfjs backend wasm: no native TensorFlow binding loads/);
    expect(l.out[0]!.fields.reason).toContain(`tfjs-node: ${UNBUILT}`);
    expect(l.out[0]!.fields.threads).toBeUndefined();
    expect(gauge).toEqual([[{ backend: 'wasm', tfjs: 'wasm', device: 'cpu' }, 1]]);

    const e = lines();
    announceBackend(planBackend('wasm', 'auto', { probes: world({}), env: {}, cores: 2 }), loaded('wasm'), {
      logger: e.logger,
      gauge: { set: () => undefined },
    });
    expect(e.out.map((x) => x.level)).toEqual(['info']);
  });
});

describe('with the native binding made unloadable (a broken libtensorflow first on LD_LIBRARY_PATH)', () => {
  it('a real start falls back to wasm with one log line and says so on /metrics', () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'signet-broken-tf-'));
    try {
      // The dynamic loader searches LD_LIBRARY_PATH before the binding's RUNPATH (deps/lib).
      for (const lib of ['libtensorflow_cc.so.2', 'libtensorflow_framework.so.2'])
        writeFileSync(path.join(broken, lib), 'not a library');
      const service = fileURLToPath(new URL('../..', import.meta.url));
      const script = `
        import { createLogger, Metrics } from '@signet/kit';
        import { announceBackend, planBackend } from './src/analysis/backend.ts';
        import { biometricsMetrics } from './src/metrics.ts';
        import { loadModels } from './src/analysis/models.ts';
        const plan = planBackend('auto', 0, { env: process.env });
        const m = await loadModels({ backend: plan.backend, supportingModels: false });
        const metrics = new Metrics('biometrics');
        announceBackend(plan, m.tfjsBackend, { logger: createLogger('biometrics', 'info'), gauge: biometricsMetrics(metrics).backendInfo });
        await new Promise((r) => setTimeout(r, 100));
        console.log((await metrics.registry.metrics()).split('\\n').filter((l) => l.startsWith('signet_biometrics_tfjs')).join('\\n'));
      `;
      const r = spawnSync(
        process.execPath,
        ['--conditions=@signet/source', '--import', 'tsx', '--input-type=module', '-e', script],
        {
          cwd: service,
          env: { ...process.env, LD_LIBRARY_PATH: broken, TF_CPP_MIN_LOG_LEVEL: '2' },
          encoding: 'utf8',
          timeout: 90_000,
        },
      );
      expect(r.status, r.stderr).toBe(0);
      const logLines = r.stdout.split('\n').filter((l) => l.startsWith('{'));
      expect(logLines, r.stdout).toHaveLength(1);
      const line = JSON.parse(logLines[0]!) as { level: number; msg: string; backend: string; reason: string };
      expect(line.level).toBe(40); // pino warn
      expect(line.backend).toBe('wasm');
      expect(line.msg).toMatch(/^tfjs backend wasm: no native TensorFlow binding loads/);
      expect(line.reason).toMatch(/tfjs-node: /);
      expect(r.stdout).toContain(
        'signet_biometrics_tfjs_backend_info{backend="wasm",tfjs="wasm",device="cpu",service="biometrics"} 1',
      );
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  }, 120_000);
});
