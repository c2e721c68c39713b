/**
 * Human's models as TensorFlow sessions (graph-sessions.ts, converted by scripts/tfjs-native.sh):
 * on tfjs-node every model runs as a session of its checked conversion, and the faces, meshes,
 * angles, iris-refined eyes and descriptors it yields are the eager graph's on real photos; a
 * conversion of other weights, or one that computes something else, is not used.
 * Without a loadable tfjs-node binding (SIGNET_TFJS_NATIVE=0) there is nothing to test here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemProbes } from '../src/analysis/backend.js';
import { detectFacesLocal, type DetectResult } from '../src/analysis/detect.js';
import { attachGraphSessions, outputsDiffer, type NativeTf } from '../src/analysis/graph-sessions.js';
import { decodeImage, type RgbImage } from '../src/analysis/media.js';
import { loadModels, packageDir, packageVersion, type LoadedModels } from '../src/analysis/models.js';
import { packagePhotos } from './corpus/faces.js';

const native = systemProbes.load('@tensorflow/tfjs-node') === null;
const require = createRequire(import.meta.url);

describe.skipIf(!native)('graph sessions on tfjs-node', () => {
  let eager: LoadedModels;
  let photos: RgbImage[];
  /** the eager graphs' results, taken before any session is loaded in this process (Human keeps
   *  its models in module state, so a later loadModels may hand out the same graph objects) */
  let before: DetectResult[];
  const graphs = () =>
    path.join(packageDir('@tensorflow/tfjs-node'), 'deps', 'graphs', `human@${packageVersion('@vladmandic/human')}`);
  const humanModels = (m: LoadedModels) => (m.human.models as unknown as { models: Record<string, never> }).models;
  const weights = (m: LoadedModels) => Object.fromEntries(m.models.map((x) => [x.name, x.file]));
  const detectAll = async (m: LoadedModels) => {
    const out: DetectResult[] = [];
    for (const img of photos)
      out.push(
        await detectFacesLocal(m, img, { embed: true, iris: true, supporting: true, maxFaces: 3, minRelativeFaceWidth: 0.3 }),
      );
    return out;
  };

  beforeAll(async () => {
    eager = await loadModels({ backend: 'node', graphSessions: false });
    photos = await Promise.all(packagePhotos().map((p) => decodeImage(readFileSync(p.file), 640)));
    const fm = humanModels(eager).facemesh as unknown as object;
    // nothing patched yet: execute is the GraphModel's own
    expect(Object.prototype.hasOwnProperty.call(fm, 'execute')).toBe(false);
    before = await detectAll(eager);
  }, 120_000);
  afterAll(() => eager?.close());

  it('runs the frame pass models as sessions of their conversions when asked, and none when not', async () => {
    expect(eager.sessions).toEqual([]);
    const frameModels = ['blazeface', 'facemesh', 'iris', 'faceres'].map((n) => `${n}:session`).sort();
    const m = await loadModels({ backend: 'node', supportingModels: true });
    expect(m.sessions.map((s) => `${s.name}:${s.runtime}`).sort()).toEqual(frameModels);
    await m.close();
    // with a pool the worker threads attach them and report it
    const pooled = await loadModels({ backend: 'node', supportingModels: false, workers: 2 });
    expect(pooled.sessions.map((s) => `${s.name}:${s.runtime}`).sort()).toEqual(frameModels);
    await pooled.close();
  }, 120_000);

  it('finds the same faces, meshes, angles and descriptors as the eager graphs', async () => {
    const states = await attachGraphSessions(
      require('@tensorflow/tfjs-node') as NativeTf,
      graphs(),
      humanModels(eager),
      weights(eager),
    );
    expect(states.every((s) => s.runtime === 'session')).toBe(true);
    const after = await detectAll(eager);
    expect(after.map((r) => r.faces.length)).toEqual(before.map((r) => r.faces.length));
    expect(before.reduce((a, r) => a + r.faces.length, 0)).toBeGreaterThanOrEqual(photos.length);
    let mesh = 0;
    let emb = 0;
    let angle = 0;
    let real = 0;
    before.forEach((r, i) =>
      r.faces.forEach((f, k) => {
        const g = after[i]!.faces[k]!;
        f.mesh.forEach((p, j) => (mesh = Math.max(mesh, Math.abs(p[0] - g.mesh[j]![0]), Math.abs(p[1] - g.mesh[j]![1]))));
        f.embedding!.forEach((e, j) => (emb = Math.max(emb, Math.abs(e - g.embedding![j]!))));
        angle = Math.max(angle, Math.abs(f.yawDeg - g.yawDeg), Math.abs(f.pitchDeg - g.pitchDeg));
        real = Math.max(real, Math.abs((f.real ?? 0) - (g.real ?? 0)), Math.abs((f.live ?? 0) - (g.live ?? 0)));
      }),
    );
    // meshes are whole pixels; a pixel's rounding may flip
    expect(mesh).toBeLessThanOrEqual(1);
    expect(emb).toBeLessThan(1e-3);
    expect(angle).toBeLessThan(0.5);
    expect(real).toBeLessThan(1e-2);
  }, 120_000);

  it('does not use a conversion made from other weights', async () => {
    const m = await loadModels({ backend: 'node', supportingModels: false, graphSessions: false });
    const w = weights(m);
    const states = await attachGraphSessions(require('@tensorflow/tfjs-node') as NativeTf, graphs(), humanModels(m), {
      ...w,
      facemesh: w.iris!,
    });
    expect(states.find((s) => s.name === 'facemesh')).toEqual({
      name: 'facemesh',
      runtime: 'eager',
      reason: 'the conversion was made from other weights',
    });
    expect(states.find((s) => s.name === 'iris')?.runtime).toBe('session');
    await m.close();
  }, 120_000);
});

describe('outputsDiffer: the start check of a session against its graph', () => {
  const t = (shape: number[], values: number[]) => ({
    shape,
    dataSync: () => Float32Array.from(values),
    dispose: () => undefined,
  });
  it('accepts rounding, refuses a different value, shape or count', () => {
    expect(outputsDiffer([t([2], [100, 1])], [t([2], [100.05, 1])])).toBeNull();
    expect(outputsDiffer([t([2], [100, 1])], [t([2], [100.5, 1])])).toMatch(/output 0: differs/);
    expect(outputsDiffer([t([2], [0.1, 0.2])], [t([2], [0.1, 0.21])])).toMatch(/differs/);
    expect(outputsDiffer([t([2], [1, 2])], [t([1, 2], [1, 2])])).toMatch(/shape/);
    expect(outputsDiffer([t([1], [1])], [t([1], [1]), t([1], [1])])).toMatch(/1 outputs against 2/);
    expect(outputsDiffer([t([1], [1])], [t([1], [NaN])])).toMatch(/differs/);
  });
});
