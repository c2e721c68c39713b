/**
 * Box tracking between frames (detect.ts) with the real models: a tracked frame reuses the boxes of
 * its thread's previous frame of the same capture without running the detector, and falls back to
 * the detector on that very frame when the tracked boxes hold no face; another capture, a long gap
 * or a frame the plan detects always runs the detector.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFacesLocal, nextCapture, type DetectOpts } from '../src/analysis/detect.js';
import { decodeImage, type RgbImage } from '../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../src/analysis/models.js';
import { packagePhotos } from './corpus/faces.js';
import { blank } from './corpus/render.js';

describe('detector box tracking', () => {
  let models: LoadedModels;
  let group: RgbImage;
  const opts = (track: DetectOpts['track']): DetectOpts => ({
    embed: false,
    iris: false,
    supporting: false,
    maxFaces: 3,
    minRelativeFaceWidth: 0.35,
    track,
  });

  beforeAll(async () => {
    models = await loadModels({ supportingModels: false, backend: 'node' }).catch(() => loadModels({ supportingModels: false }));
    const photo = packagePhotos().find((p) => p.id === 'face-api/sample1') ?? packagePhotos()[0]!;
    group = await decodeImage(readFileSync(photo.file), 640);
  }, 120_000);

  afterAll(async () => {
    await models?.close();
  });

  it('tracks the faces of the previous frame, and detects again when they are lost or the capture changes', async () => {
    const cap = nextCapture();
    const first = await detectFacesLocal(models, group, opts({ capture: cap, frame: 0, reuse: false }));
    expect(first.detected).toBe(true);
    expect(first.faces.length).toBeGreaterThanOrEqual(1);

    const tracked = await detectFacesLocal(models, group, opts({ capture: cap, frame: 1, reuse: true }));
    expect(tracked.detected).toBe(false);
    expect(tracked.faces.length).toBe(first.faces.length);
    for (const [k, f] of tracked.faces.entries())
      expect(Math.abs(f.box[0] - first.faces[k]!.box[0])).toBeLessThan(first.faces[k]!.box[2] * 0.1);
    // each face says which crop it was meshed (and described) in: identity compares one kind only
    expect(tracked.faces.every((f) => f.tracked === true)).toBe(true);
    expect(first.faces.some((f) => f.tracked)).toBe(false);

    // the face is gone: the tracked boxes mesh nothing, so the detector runs on the same frame
    const lost = await detectFacesLocal(models, blank(), opts({ capture: cap, frame: 2, reuse: true }));
    expect(lost.detected).toBe(true);
    expect(lost.faces).toEqual([]);

    // a frame of another capture never reuses this capture's boxes; nor a long gap
    const again = await detectFacesLocal(models, group, opts({ capture: cap, frame: 3, reuse: false }));
    expect(again.faces.length).toBe(first.faces.length);
    const other = await detectFacesLocal(models, group, opts({ capture: nextCapture(), frame: 4, reuse: true }));
    expect(other.detected).toBe(true);
    const gap = await detectFacesLocal(models, group, opts({ capture: cap, frame: 40, reuse: true }));
    expect(gap.detected).toBe(true);
  }, 120_000);
});
