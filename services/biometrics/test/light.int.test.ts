/**
 * The light challenge on real frames: a genuine capture of the ceremony's shortest timeline (15 s,
 * drawn by the ceremony's own code) rendered with the page's colours reflected by the face as physics
 * gives it (each point by its orientation to the screen, from the face mesh's normals: corpus
 * renderer), decoded as the analysis decodes it (8 fps, 640 wide) and meshed by the real face models,
 * must pass lightResponse for the issued sequence and fail for any other sequence; the same capture
 * rendered without light must fail, and so must a puppet that follows the sequence but tints the face
 * uniformly (issue 30). One segment carries four 250 ms flashes (issue 30): the genuine capture
 * reflects them in the right frames; a puppet that holds the segment's first colour through them, or
 * answers everything 300 ms late, fails. Needs no services, only the models and ffmpeg.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisConfig } from '../src/analysis/config.js';
import { detectFacesLocal } from '../src/analysis/detect.js';
import { LIGHT_PALETTE, lightResponse, type FaceRegion, type LightInput } from '../src/analysis/light.js';
import { decodeVideo } from '../src/analysis/media.js';
import { loadModels, type LoadedModels } from '../src/analysis/models.js';
import { findChallenge, makeGenuineCapture, timelineLight } from './corpus/make-corpus.js';
import { rng } from './corpus/render.js';

/**
 * The ceremony's shortest timeline (baseline, words, no extra gap, three actions each followed by
 * one neutral segment, the hold: 15 s), where the light check has the fewest frames to go on.
 */
const challenge = findChallenge('light-int', 3, (c) => c.timeline.total_ms === 15_000 && !!c.timeline.flash);
const timeline = challenge.timeline;
const flash = timeline.flash!;
const SEGMENT_S = timeline.segment_ms / 1000;
const K = timeline.colours.length;
const changes = Array.from({ length: K }, (_, k) => k * SEGMENT_S);
/** Drawn as the ceremony draws: uniformly from the palette, never the same colour twice in a row. */
const sequence = (seed: number) => {
  const r = rng(seed);
  const out: string[] = [];
  for (let k = 0; k < K; k++) {
    const pool = LIGHT_PALETTE.filter((c) => c !== out[k - 1]);
    out.push(pool[Math.floor(r() * pool.length)]);
  }
  return out;
};
const issued = timeline.colours;
/** The screen as the page shows it: the segments' colours and the flashes at their steps. */
const shown = { ...timelineLight(timeline), flash: { first: flash.segment, count: flash.colours.length } };
const actions = challenge.actions;
const cfg = analysisConfig.light;

type Frames = Omit<LightInput, 'colours' | 'changes'>;

describe('light challenge on rendered captures', () => {
  let models: LoadedModels;
  let dir = '';
  let lit: Frames;
  let unlit: Frames;
  let tinted: Frames;
  let held: Frames;

  /** Decode as analyze.ts does and take the primary face's mesh of every frame. */
  const frames = async (file: string): Promise<Frames> => {
    const v = await decodeVideo(readFileSync(file), { fps: analysisConfig.sampling.fps, width: analysisConfig.sampling.width });
    const faces: (FaceRegion | null)[] = [];
    for (const f of v.frames) {
      const r = await detectFacesLocal(models, f, { embed: false, supporting: false, maxFaces: 1, minRelativeFaceWidth: 0.35 });
      faces.push(r.faces[0] ?? null);
    }
    return { frames: v.frames, times: v.times, faces, triangles: models.human.faceTriangulation };
  };

  beforeAll(async () => {
    // the native backend when its binding is built here, else wasm
    models = await loadModels({ supportingModels: false, backend: 'node' }).catch(() => loadModels({ supportingModels: false }));
    dir = mkdtempSync(path.join(tmpdir(), 'signet-light-'));
    const a = await makeGenuineCapture(path.join(dir, 'lit'), actions, {
      models,
      words: challenge.words,
      serverTimeline: timeline,
    });
    lit = await frames(a.video!);
    // a puppet that follows the once-a-second colours but not the flashes
    const h = await makeGenuineCapture(path.join(dir, 'held'), actions, {
      models,
      words: challenge.words,
      serverTimeline: timeline,
      light: timelineLight(timeline, 0, { flashes: false }),
    });
    held = await frames(h.video!);
    const b = await makeGenuineCapture(path.join(dir, 'unlit'), actions, {
      models,
      words: challenge.words,
      serverTimeline: timeline,
      light: null,
    });
    unlit = await frames(b.video!);
    const c = await makeGenuineCapture(path.join(dir, 'tinted'), actions, {
      models,
      words: challenge.words,
      serverTimeline: timeline,
      lightShading: 'uniform',
    });
    tinted = await frames(c.video!);
  }, 900_000);

  afterAll(async () => {
    await models?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const show = (name: string, r: ReturnType<typeof lightResponse>) =>
    console.info(
      `light ${name}: score ${r.score.toFixed(3)} (null q99 ${r.nullQuantile.toFixed(3)}), lag ${r.lagS} s, ` +
        `amplitude ${(r.amplitude * 100).toFixed(2)} %, segments agreeing ${(r.agreement * 100).toFixed(0)} %, ` +
        `orientation ${r.orientation === null ? '–' : (r.orientation * 100).toFixed(0)} %, ${r.framesUsed} frames, passed ${r.passed}`,
    );

  it('passes the genuine capture checked against its issued sequence', () => {
    expect(lit.faces.filter(Boolean).length).toBeGreaterThanOrEqual(lit.frames.length - 2);
    const r = lightResponse({ ...lit, ...shown });
    show('genuine', r);
    expect(r.passed, r.detail).toBe(true);
    expect(r.score).toBeGreaterThan(cfg.minScore + 0.2);
    expect(r.amplitude).toBeGreaterThan(2 * cfg.minAmplitude);
    // the renderer's display delay is 0.1 s and its exposure ramp 0.12 s
    expect(r.lagS).toBeGreaterThanOrEqual(0);
    expect(r.lagS).toBeLessThanOrEqual(0.35);
    expect(r.background).toBe(true);
    expect(r.orientation!).toBeGreaterThan(cfg.minOrientation);
    // the flashes, in the right frames
    expect(r.flash?.passed, r.flash?.detail).toBe(true);
    expect(r.flash!.lagS).toBeGreaterThanOrEqual(0);
    expect(r.flash!.lagS).toBeLessThanOrEqual(0.2);
  });

  it('fails a puppet that follows the once-a-second colours but holds the first flash through the flashes', () => {
    const r = lightResponse({ ...held, ...shown });
    show('flashes ignored', r);
    console.info(`light flashes ignored: ${r.flash?.detail}`);
    expect(r.passed, r.detail).toBe(false);
    expect(r.flash?.passed).toBe(false);
    // the rest of the light check lets it through, the orientation gate included (it is lit by
    // physics): only the flashes stop it
    const slow = lightResponse({ ...held, colours: shown.colours, changes: shown.changes });
    expect(slow.passed, slow.detail).toBe(true);
    expect(slow.orientation!).toBeGreaterThan(cfg.minOrientation);
  });

  it('fails the genuine capture when its light comes 300 ms later than the page showed it (a puppet rendered after each reveal)', () => {
    const late = { ...shown, changes: shown.changes.map((c) => c - 0.3) };
    const r = lightResponse({ ...lit, ...late });
    console.info(`light 300 ms late: ${r.flash?.detail}`);
    expect(r.passed, r.detail).toBe(false);
    expect(r.flash?.reason).toBe('late');
    // the once-a-second colours alone allow it (their lag search reaches 0.6 s)
    const slow = lightResponse({ ...lit, colours: late.colours, changes: late.changes });
    expect(slow.passed, slow.detail).toBe(true);
  });

  it('fails a puppet that follows the issued sequence but tints the face uniformly (the orientation gate alone stops it)', () => {
    const r = lightResponse({ ...tinted, ...shown });
    show('uniform tint', r);
    expect(r.passed, r.detail).toBe(false);
    expect(r.orientation ?? 0).toBeLessThan(cfg.minOrientation);
    const open = lightResponse({ ...tinted, ...shown }, { ...cfg, minOrientation: -Infinity });
    expect(open.passed, open.detail).toBe(true);
  });

  it('fails the same capture checked against 50 other random sequences', () => {
    const scores: number[] = [];
    const ms: number[] = [];
    for (let s = 0; s < 50; s++) {
      const other = sequence(9000 + s);
      const t0 = performance.now();
      const r = lightResponse({ ...held, colours: other, changes });
      ms.push(performance.now() - t0);
      scores.push(r.score);
      expect(r.passed, `${other.join(',')}: ${r.detail}`).toBe(false);
    }
    scores.sort((a, b) => a - b);
    ms.sort((a, b) => a - b);
    console.info(
      `light wrong sequences: score median ${scores[25].toFixed(3)}, max ${scores[49].toFixed(3)}; ` +
        `lightResponse ${ms[25].toFixed(1)} ms median, ${ms[49].toFixed(1)} ms max`,
    );
    // no timed assertion: at load 60 the median was 252 ms with the code unchanged; speed is the verdict bench's to measure
  });

  it('fails the issued sequence reversed', () => {
    const r = lightResponse({ ...lit, colours: [...shown.colours].reverse(), changes: shown.changes });
    show('reversed', r);
    expect(r.passed).toBe(false);
  });

  it('fails a capture rendered without light', () => {
    const r = lightResponse({ ...unlit, colours: issued, changes });
    show('no light', r);
    expect(r.passed).toBe(false);
    expect(r.amplitude).toBeLessThan(cfg.minAmplitude);
  });
});
