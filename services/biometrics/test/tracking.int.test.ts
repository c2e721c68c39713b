/**
 * Box tracking between frames (detect.ts) with the real models: inside a run of frames a tracked
 * frame reuses the boxes of the frame before it without running the detector, and falls back to
 * the detector on that very frame when the tracked boxes hold no face; a run's first frame, and a
 * lone frame, always run the detector, whatever the thread meshed before; and a run gives the same
 * faces however it is interleaved with other captures' runs (through the pool).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFacesLocal, detectRunLocal, type DetectOpts } from '../src/analysis/detect.js';
import { decodeImage, type RgbImage } from '../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../src/analysis/models.js';
import { packagePhotos } from './corpus/faces.js';
import { blank } from './corpus/render.js';

describe('detector box tracking', () => {
  let models: LoadedModels;
  let group: RgbImage;
  let backend: 'node' | undefined = 'node';
  const opts = (reuse: boolean): DetectOpts => ({
    embed: false,
    iris: false,
    supporting: false,
    maxFaces: 3,
    minRelativeFaceWidth: 0.35,
    reuse,
  });

  beforeAll(async () => {
    models = await loadModels({ supportingModels: false, backend: 'node' }).catch(() => {
      backend = undefined;
      return loadModels({ supportingModels: false });
    });
    const photo = packagePhotos().find((p) => p.id === 'face-api/sample1') ?? packagePhotos()[0]!;
    group = await decodeImage(readFileSync(photo.file), 640);
  }, 120_000);

  afterAll(async () => {
    await models?.close();
  });

  it('tracks the faces of the frame before inside a run, and detects again when they are lost or a run starts', async () => {
    const [first, tracked, lost, again] = await detectRunLocal(
      models,
      [group, group, blank(), group],
      [opts(false), opts(true), opts(true), opts(false)],
    );
    expect(first!.detected).toBe(true);
    expect(first!.faces.length).toBeGreaterThanOrEqual(1);

    expect(tracked!.detected).toBe(false);
    expect(tracked!.faces.length).toBe(first!.faces.length);
    for (const [k, f] of tracked!.faces.entries())
      expect(Math.abs(f.box[0] - first!.faces[k]!.box[0])).toBeLessThan(first!.faces[k]!.box[2] * 0.1);
    // each face says which crop it was meshed (and described) in: identity compares one kind only
    expect(tracked!.faces.every((f) => f.tracked === true)).toBe(true);
    expect(first!.faces.some((f) => f.tracked)).toBe(false);

    // the face is gone: the tracked boxes mesh nothing, so the detector runs on the same frame
    expect(lost!.detected).toBe(true);
    expect(lost!.faces).toEqual([]);
    expect(again!.faces.length).toBe(first!.faces.length);

    // a run's first frame never tracks, even when asked to and the thread's last frame had faces
    const [start] = await detectRunLocal(models, [group], [opts(true)]);
    expect(start!.detected).toBe(true);
    // nor does a lone frame
    expect((await detectFacesLocal(models, group, opts(true))).detected).toBe(true);
  }, 120_000);

  it('gives a run the same faces however the pool interleaves it with other captures', async () => {
    // a face moving 12 px a frame: boxes tracked from any other frame than the one before would differ
    const shift = (img: RgbImage, dx: number): RgbImage => {
      const data = new Uint8Array(img.data.length);
      for (let y = 0; y < img.height; y++)
        data.set(img.data.subarray(y * img.width * 3, (y * img.width + img.width - dx) * 3), (y * img.width + dx) * 3);
      return { ...img, data };
    };
    const frames = [0, 1, 2, 3].map((k) => shift(group, 12 * k));
    const o = [opts(false), opts(true), opts(true), opts(true)];
    const alone = await detectRunLocal(models, frames, o);
    const pooled = await loadModels({ supportingModels: false, backend, workers: 2 });
    try {
      // three copies at once, on fresh threads, with runs of another capture of another size between
      // them (Human compares a frame with the last it kept only at the same size: tracking used to
      // fall back to the detector, unseen, after such a frame and on a thread's first run)
      const wide: RgbImage = { width: 640, height: 360, data: new Uint8Array(640 * 360 * 3) };
      const others = () => pooled.pool!.detectRun([wide, wide], [opts(false), opts(true)]);
      const runs = await Promise.all([
        pooled.pool!.detectRun(frames, o),
        others(),
        pooled.pool!.detectRun(frames, o),
        others(),
        pooled.pool!.detectRun(frames, o),
      ]);
      const meshes = (r: typeof alone) => r.map((x) => x.faces.map((f) => f.mesh));
      for (const r of [runs[0]!, runs[2]!, runs[4]!]) {
        expect(r.map((x) => x.detected)).toEqual([true, false, false, false]);
        expect(meshes(r)).toEqual(meshes(runs[0]!));
        // the same faces as in this thread (a worker may run a model as a session of its graph: not bit for bit)
        expect(r.map((x) => x.faces.length)).toEqual(alone.map((x) => x.faces.length));
        for (const [k, x] of r.entries())
          for (const [j, f] of x.faces.entries())
            for (const c of [0, 1, 2, 3]) expect(Math.abs(f.box[c]! - alone[k]!.faces[j]!.box[c]!)).toBeLessThan(3);
      }
    } finally {
      await pooled.close();
    }
  }, 180_000);
});
