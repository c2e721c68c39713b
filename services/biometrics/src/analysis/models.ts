/**
 * Model loading: every model comes from files shipped inside installed npm packages.
 *
 * - Human (`@vladmandic/human`) is loaded by path from its `dist/` build for the backend, because
 *   the package `exports` map uses keys without the leading "./" and Node refuses them:
 *   `human.node-wasm.js` for wasm and cpu, `human.node.js` for `@tensorflow/tfjs-node`,
 *   `human.node-gpu.js` for `@tensorflow/tfjs-node-gpu` (see backend.ts for the choice).
 * - Its models live in `<human package>/models/*.json|.bin`. Node's `fetch` cannot read `file://`,
 *   so with wasm/cpu a tfjs IO load router for `file://` URLs reads the model JSON and weight
 *   shards from disk. tfjs-node registers its own `file://` router, and tfjs refuses a URL two
 *   routers accept, so with a native backend ours is not registered.
 * - With wasm, its `.wasm` binaries are located in the installed package directory (Human's default
 *   wasm path is a CDN URL, so it is overridden).
 *
 * Nothing is fetched from the network: the router refuses any non-`file://` URL that reaches it and
 * `loadModels` checks the model base path is a local directory.
 */
import { createHash } from 'node:crypto';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import type { Human as HumanClass, Config as HumanConfig } from '@vladmandic/human';
import { BACKEND_PACKAGE, type LoadedBackend, type TfBackend } from './backend.js';
import { DetectorPool } from './pool.js';
import { attachGraphSessions, type NativeTf, type SessionState } from './graph-sessions.js';
import { nativeFileRouter, registerFileRouter } from './model-files.js';

export { fileHandler } from './model-files.js';

const require = createRequire(import.meta.url);

export type Human = HumanClass;

export interface ModelInfo {
  name: string;
  /** package@version plus a short sha256 of the weights file, e.g. `@vladmandic/human@3.3.6 sha256:ab12…` */
  version: string;
  file: string;
  bytes: number;
}

export interface LoadedModels {
  human: Human;
  /** the tfjs instance Human computes with (use it for input tensors) */
  tf: typeof tf;
  /** tfjs backend name as tfjs reports it: `wasm`, `cpu` or `tensorflow` (tfjs-node, -gpu) */
  backend: string;
  /** the backend chosen at start, the package (with version) that provides it, and where its ops
   *  run: `gpu` only when tfjs-node-gpu's TensorFlow placed them on a GPU device */
  tfjsBackend: LoadedBackend;
  models: ModelInfo[];
  packageVersions: Record<string, string>;
  loadMs: number;
  /** worker-thread detector pool (null = detect in this thread) */
  pool: DetectorPool | null;
  /** how each model runs on a native backend: one session of its graph, or eager op by op (and why) */
  sessions: SessionState[];
  /** stop the worker threads, if any */
  close: () => Promise<void>;
}

export interface LoadModelsOptions {
  /** tfjs backend, already resolved (see backend.ts): `wasm` (default), `cpu` (pure JS, much slower),
   *  `node` (@tensorflow/tfjs-node) or `node-gpu` (@tensorflow/tfjs-node-gpu). */
  backend?: TfBackend;
  /** Enable Human's antispoof + liveness models (supporting signals only). Default true. */
  supportingModels?: boolean;
  /** Override the models directory (must be a local directory). Default: Human's bundled `models/`. */
  modelDir?: string;
  /** Worker threads for detection, each with its own models (0 = detect in the calling thread).
   *  Default 0; use one per core for the service. */
  workers?: number;
  /** On a native backend, run each model as a TensorFlow session of its checked conversion where
   *  there is one (graph-sessions.ts). Default true; false keeps every model eager. */
  graphSessions?: boolean;
}

/** Directory of an installed package (resolved from its package.json, bypassing `exports`). */
export function packageDir(name: string): string {
  // `require.resolve(name + '/package.json')` fails for packages whose exports map hides it,
  // so walk the module search paths instead.
  const paths = require.resolve.paths(name) ?? [];
  for (const p of paths) {
    const dir = path.join(p, name);
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error(`package ${name} is not installed`);
}

export function packageVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function sha256Short(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
}

/** Human models used by the analysis (the Human config below enables exactly these). */
const HUMAN_MODELS_CORE = ['blazeface', 'facemesh', 'iris', 'faceres'] as const;
const HUMAN_MODELS_SUPPORTING = ['antispoof', 'liveness'] as const;

/** Human configuration for analysis: caching OFF (short blinks vanish otherwise), nothing else enabled. */
export function humanConfig(
  modelBasePath: string,
  wasmPath: string,
  backend: 'wasm' | 'cpu' | 'tensorflow',
  supporting: boolean,
  maxDetected = 3,
): Partial<HumanConfig> {
  return {
    backend,
    modelBasePath,
    wasmPath,
    wasmPlatformFetch: false,
    debug: false,
    async: true,
    warmup: 'none',
    cacheModels: false,
    cacheSensitivity: 0,
    deallocate: true,
    filter: { enabled: false, equalization: false, flip: false } as HumanConfig['filter'],
    gesture: { enabled: false },
    body: { enabled: false } as HumanConfig['body'],
    hand: { enabled: false } as HumanConfig['hand'],
    object: { enabled: false } as HumanConfig['object'],
    segmentation: { enabled: false } as HumanConfig['segmentation'],
    face: {
      enabled: true,
      detector: {
        modelPath: 'blazeface.json',
        rotation: false,
        maxDetected,
        skipFrames: 0,
        skipTime: 0,
        minConfidence: 0.3,
        iouThreshold: 0.1,
        mask: false,
        return: false,
        square: false,
        scale: 1.4,
        cropFactor: 1.6,
      },
      mesh: { enabled: true, modelPath: 'facemesh.json', keepInvalid: false },
      attention: { enabled: false, modelPath: 'facemesh-attention.json' },
      iris: { enabled: true, modelPath: 'iris.json', scale: 2.3 },
      emotion: { enabled: false, minConfidence: 0.1, skipFrames: 0, skipTime: 0, modelPath: 'emotion.json' },
      description: { enabled: true, modelPath: 'faceres.json', skipFrames: 0, skipTime: 0, minConfidence: 0.1 },
      antispoof: { enabled: supporting, modelPath: 'antispoof.json', skipFrames: 0, skipTime: 0 },
      liveness: { enabled: supporting, modelPath: 'liveness.json', skipFrames: 0, skipTime: 0 },
      gear: { enabled: false, modelPath: 'gear.json', skipFrames: 0, skipTime: 0, minConfidence: 0.1 },
    } as unknown as HumanConfig['face'],
  };
}

/** Human's node build per backend, and the tfjs backend name it runs on. */
const HUMAN_BUILD: Record<TfBackend, { file: string; tfBackend: 'wasm' | 'cpu' | 'tensorflow' }> = {
  wasm: { file: 'human.node-wasm.js', tfBackend: 'wasm' },
  cpu: { file: 'human.node-wasm.js', tfBackend: 'cpu' },
  node: { file: 'human.node.js', tfBackend: 'tensorflow' },
  'node-gpu': { file: 'human.node-gpu.js', tfBackend: 'tensorflow' },
};

/** `gpu` when tfjs-node(-gpu)'s backend reports a GPU device (its binding's isUsingGpuDevice), else `cpu`. */
function deviceOf(t: typeof tf): 'gpu' | 'cpu' {
  return (t.backend() as { isUsingGpuDevice?: boolean }).isUsingGpuDevice === true ? 'gpu' : 'cpu';
}

/**
 * Load Human and its bundled models with the given (resolved) backend; wasm by default.
 * Returns the Human instance, the tfjs it computes with, and the list of models with versions.
 */
export async function loadModels(opts: LoadModelsOptions = {}): Promise<LoadedModels> {
  const t0 = performance.now();
  const backend = opts.backend ?? 'wasm';
  const supporting = opts.supportingModels ?? true;
  const humanDir = packageDir('@vladmandic/human');
  const modelDir = opts.modelDir ?? path.join(humanDir, 'models');
  if (!existsSync(modelDir) || !statSync(modelDir).isDirectory()) throw new Error(`model directory not found: ${modelDir}`);
  const build = HUMAN_BUILD[backend];
  const native = build.tfBackend === 'tensorflow';
  const wasmDir = native ? '' : path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;

  if (native) nativeFileRouter();
  else registerFileRouter();
  if (backend === 'cpu') await import('@tensorflow/tfjs-backend-cpu');

  // Human's node-wasm build requires @tensorflow/tfjs-core, -converter, -backend-wasm externally, so
  // it shares this process's tfjs-core instance (and therefore the file:// router above). Its
  // node/node-gpu builds require @tensorflow/tfjs-node(-gpu), which brings its own tfjs and
  // file:// router; tensors are then made with `human.tf` so they belong to that instance.
  const mod = require(path.join(humanDir, 'dist', build.file)) as { Human: new (c: Partial<HumanConfig>) => Human };
  const modelBasePath = pathToFileURL(modelDir).href + '/';
  const human = new mod.Human(humanConfig(modelBasePath, wasmDir, build.tfBackend, supporting));
  const humanTf = (native ? human.tf : tf) as typeof tf;
  await human.init();
  await human.load();
  if (humanTf.getBackend() !== build.tfBackend)
    throw new Error(`tfjs backend is ${humanTf.getBackend()}, expected ${build.tfBackend} (${backend})`);

  const names = [...HUMAN_MODELS_CORE, ...(supporting ? HUMAN_MODELS_SUPPORTING : [])];
  const humanVersion = packageVersion('@vladmandic/human');
  const models: ModelInfo[] = names.map((name) => {
    const file = path.join(modelDir, `${name}.bin`);
    return { name, file, bytes: statSync(file).size, version: `@vladmandic/human@${humanVersion} sha256:${sha256Short(file)}` };
  });
  // every enabled model must actually be loaded
  const loaded = human.models.loaded();
  const missing = names.filter((n) => !loaded.some((l: string) => l.toLowerCase().includes(n)));
  if (missing.length > 0) throw new Error(`models failed to load: ${missing.join(', ')} (loaded: ${loaded.join(', ')})`);

  const backendPackage = BACKEND_PACKAGE[backend];
  const packageVersions: Record<string, string> = {};
  for (const p of ['@vladmandic/human', '@tensorflow/tfjs-core', '@tensorflow/tfjs-converter', backendPackage])
    packageVersions[p] = packageVersion(p);
  // converted at install under the binding's deps/ (scripts/tfjs-native.sh), per Human version. Only
  // the models of the frame pass: a session costs ≈ 20 MB per thread, and the supporting models run
  // once per verdict. With a pool the threads compute and this one does not: it attaches nothing.
  const workers = opts.workers ?? 0;
  const sessionsHere =
    native && opts.graphSessions !== false && workers === 0
      ? await attachGraphSessions(
          require(backendPackage) as NativeTf,
          path.join(packageDir(backendPackage), 'deps', 'graphs', `human@${humanVersion}`),
          Object.fromEntries(
            HUMAN_MODELS_CORE.map((n) => [n, (human.models as unknown as { models: Record<string, never> }).models[n]]),
          ),
          Object.fromEntries(models.map((x) => [x.name, x.file])),
        )
      : [];
  const started =
    workers > 0
      ? await DetectorPool.start(workers, {
          backend,
          supportingModels: supporting,
          modelDir: opts.modelDir,
          graphSessions: opts.graphSessions,
        })
      : null;
  const pool = started?.pool ?? null;
  const sessions = started ? started.sessions : sessionsHere;
  return {
    human,
    tf: humanTf,
    backend: humanTf.getBackend(),
    tfjsBackend: { name: backend, package: backendPackage, version: packageVersions[backendPackage]!, device: deviceOf(humanTf) },
    models,
    packageVersions,
    loadMs: performance.now() - t0,
    pool,
    sessions,
    close: async () => {
      await pool?.close();
    },
  };
}
