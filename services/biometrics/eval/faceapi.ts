/**
 * `@vladmandic/face-api` as a second face descriptor for the evaluation (eval only; the service does
 * not use it).
 *
 * - Loaded by path from `dist/face-api.node-wasm.js`. That build does not bundle tfjs: it requires
 *   `@tensorflow/tfjs` (the umbrella package, not installed here) and `@tensorflow/tfjs-backend-wasm`.
 *   face-api only uses tfjs-core ops and `tf.io`, so `@tensorflow/tfjs` is resolved to tfjs-core
 *   (+ converter) for that one `require`. face-api then shares this process's tfjs-core engine with
 *   Human: same wasm backend, same `tf.Tensor` class (face-api checks `instanceof tf.Tensor`).
 * - Weights come from the package's `model/` directory through `net.loadFromDisk(dir)`, which reads
 *   the weights manifest and shards with `fs` (no fetch, no network).
 * - Networks: ssd_mobilenetv1 detector, 68-point landmarks (alignment), 128-d recognition net.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import type * as tfCore from '@tensorflow/tfjs-core';
import type { RgbImage } from '../src/analysis/media.js';
import { packageDir, packageVersion, type ModelInfo } from '../src/analysis/models.js';

const require = createRequire(import.meta.url);

/** The part of face-api's API used here (its .d.ts pulls in DOM types, so it is not imported). */
interface FaceApiDetection {
  detection: { box: { x: number; y: number; width: number; height: number }; score: number };
  descriptor: Float32Array;
}
interface FaceApiNet {
  loadFromDisk(dir: string): Promise<void>;
  isLoaded: boolean;
}
interface FaceApiModule {
  version: string;
  nets: { ssdMobilenetv1: FaceApiNet; faceLandmark68Net: FaceApiNet; faceRecognitionNet: FaceApiNet };
  SsdMobilenetv1Options: new (o: { minConfidence?: number; maxResults?: number }) => unknown;
  detectAllFaces(
    input: tfCore.Tensor3D,
    options: unknown,
  ): { withFaceLandmarks(): { withFaceDescriptors(): Promise<FaceApiDetection[]> } };
  tf: { getBackend(): string };
}

/** One face found by face-api: detector score, box width (px) and its 128-d descriptor. */
export interface FaceApiFace {
  score: number;
  width: number;
  descriptor: number[];
}

/** Detector confidences reported: face-api's default, and the one Human's detector uses (models.ts). */
export const FACEAPI_MIN_CONFIDENCE_DEFAULT = 0.5;
export const FACEAPI_MIN_CONFIDENCE_LOW = 0.3;

/** The descriptor of the largest face with detector score ≥ minConfidence (same rule as the Human path). */
export function largestFace(faces: readonly FaceApiFace[], minConfidence: number): number[] | null {
  const ok = faces.filter((f) => f.score >= minConfidence).sort((a, b) => b.width - a.width);
  return ok[0]?.descriptor ?? null;
}

export interface FaceApi {
  /** Detect every face with score ≥ FACEAPI_MIN_CONFIDENCE_LOW (at most 3) and describe each. */
  describe(img: RgbImage): Promise<FaceApiFace[]>;
  models: ModelInfo[];
  version: string;
  backend: string;
}

/** face-api's conventional match threshold: Euclidean distance on its raw 128-d descriptor. */
export const FACEAPI_THRESHOLD = 0.6;

/** Plain Euclidean distance (face-api descriptors are compared as-is, not re-normalised). */
export function euclidean(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}

/**
 * tfjs-core's Node bundle does not register the chained tensor methods (`t.as3D()`, `t.toFloat()`,
 * `t.add(x)` …); the `@tensorflow/tfjs` umbrella does, and face-api calls them. Register the same
 * methods on tfjs-core's global Tensor class, with tfjs-core's own definitions
 * (`dist/public/chained_ops/*`): each is `op(this, ...args)` except the ones spelled out below.
 * Human does not use chained ops, so adding them changes nothing for it.
 */
function registerChainedOps(tf: typeof tfCore): void {
  type Fn = (...a: unknown[]) => tfCore.Tensor;
  type T = tfCore.Tensor & { throwIfDisposed(): void };
  const proto = tf.Tensor.prototype as unknown as Record<string, unknown>;
  const ops = tf as unknown as Record<string, Fn>;
  const special: Record<string, (t: T, ...a: unknown[]) => tfCore.Tensor> = {
    as1D: (t) => tf.reshape(t, [t.size]),
    flatten: (t) => tf.reshape(t, [t.size]),
    as2D: (t, ...a) => tf.reshape(t, a.slice(0, 2) as number[]),
    as3D: (t, ...a) => tf.reshape(t, a.slice(0, 3) as number[]),
    as4D: (t, ...a) => tf.reshape(t, a.slice(0, 4) as number[]),
    as5D: (t, ...a) => tf.reshape(t, a.slice(0, 5) as number[]),
    asScalar: (t) => tf.reshape(t, []),
    reshapeAs: (t, x) => tf.reshape(t, (x as tfCore.Tensor).shape),
    asType: (t, d) => tf.cast(t, d as tfCore.DataType),
    toFloat: (t) => tf.cast(t, 'float32'),
    toInt: (t) => tf.cast(t, 'int32'),
    toBool: (t) => tf.cast(t, 'bool'),
    concat: (t, x, axis) => tf.concat(x instanceof tf.Tensor ? [t, x] : [t, ...(x as tfCore.Tensor[])], axis as number),
    stack: (t, x, axis) => tf.stack(x instanceof tf.Tensor ? [t, x] : [t, ...(x as tfCore.Tensor[])], axis as number),
    where: (t, cond, x) => tf.where(cond as tfCore.Tensor, t, x as tfCore.Tensor),
    resizeBilinear: (t, ...a) => (tf.image.resizeBilinear as unknown as Fn)(t, ...a),
    resizeNearestNeighbor: (t, ...a) => (tf.image.resizeNearestNeighbor as unknown as Fn)(t, ...a),
  };
  for (const name of CHAINED_OPS) {
    if (typeof proto[name] === 'function') continue;
    const impl = special[name] ?? (typeof ops[name] === 'function' ? (t: T, ...a: unknown[]) => ops[name](t, ...a) : null);
    if (!impl) throw new Error(`no tfjs-core op for chained method ${name}`);
    proto[name] = function (this: T, ...a: unknown[]) {
      this.throwIfDisposed();
      return impl(this, ...a);
    };
  }
}

/** The chained methods face-api 1.7.15's bundle calls (tfjs-core 4.22 `dist/public/chained_ops`). */
const CHAINED_OPS = [
  'abs',
  'add',
  'all',
  'as1D',
  'as2D',
  'as3D',
  'as4D',
  'as5D',
  'asScalar',
  'asType',
  'asin',
  'atan',
  'avgPool',
  'batchNorm',
  'cast',
  'clipByValue',
  'concat',
  'conv2d',
  'depthwiseConv2d',
  'div',
  'exp',
  'expandDims',
  'flatten',
  'floor',
  'isNaN',
  'log',
  'matMul',
  'max',
  'maxPool',
  'mean',
  'min',
  'mul',
  'pad',
  'relu',
  'reshape',
  'reshapeAs',
  'resizeBilinear',
  'reverse',
  'round',
  'separableConv2d',
  'sigmoid',
  'slice',
  'softmax',
  'split',
  'sqrt',
  'stack',
  'sub',
  'tile',
  'toBool',
  'toFloat',
  'toInt',
  'transpose',
  'unstack',
  'where',
];

const NETS = [
  ['ssd_mobilenetv1', 'ssd_mobilenetv1_model.bin'],
  ['face_landmark_68', 'face_landmark_68_model.bin'],
  ['face_recognition', 'face_recognition_model.bin'],
] as const;

/**
 * Load face-api on the tfjs-core instance `tf` (already initialised with its backend by Human's
 * `loadModels`).
 */
export async function loadFaceApi(tf: typeof tfCore): Promise<FaceApi> {
  const dir = packageDir('@vladmandic/face-api');
  const coreFile = require.resolve('@tensorflow/tfjs-core');
  const core = require(coreFile) as Record<string, unknown>;
  if (core.ENV !== tf.ENV) throw new Error('tfjs-core resolved by require is not the instance Human uses');
  const converter = require('@tensorflow/tfjs-converter') as Record<string, unknown>;
  const umbrella = { ...converter, ...core };
  registerChainedOps(tf);

  type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
  const M = Module as unknown as { _load: Loader };
  const original = M._load;
  M._load = function (request, parent, isMain) {
    if (request === '@tensorflow/tfjs') return umbrella;
    return original.call(this, request, parent, isMain);
  };
  let faceapi: FaceApiModule;
  try {
    faceapi = require(path.join(dir, 'dist', 'face-api.node-wasm.js')) as FaceApiModule;
  } finally {
    M._load = original;
  }

  const modelDir = path.join(dir, 'model');
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
  for (const k of ['ssdMobilenetv1', 'faceLandmark68Net', 'faceRecognitionNet'] as const)
    if (!faceapi.nets[k].isLoaded) throw new Error(`face-api net ${k} failed to load from ${modelDir}`);

  const version = packageVersion('@vladmandic/face-api');
  const models: ModelInfo[] = NETS.map(([name, bin]) => {
    const file = path.join(modelDir, bin);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
    return { name, file, bytes: statSync(file).size, version: `@vladmandic/face-api@${version} sha256:${sha}` };
  });
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: FACEAPI_MIN_CONFIDENCE_LOW, maxResults: 3 });

  return {
    models,
    version,
    backend: faceapi.tf.getBackend(),
    describe: async (img) => {
      const t = tf.tensor3d(Float32Array.from(img.data), [img.height, img.width, 3], 'float32');
      try {
        const found = await faceapi.detectAllFaces(t, options).withFaceLandmarks().withFaceDescriptors();
        return found.map((f) => ({ score: f.detection.score, width: f.detection.box.width, descriptor: [...f.descriptor] }));
      } finally {
        t.dispose();
      }
    },
  };
}
