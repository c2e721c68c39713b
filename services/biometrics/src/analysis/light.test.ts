import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { IDX } from './geometry.js';
import {
  facesAt,
  flashWindow,
  hexToLinear,
  InvalidLightChallengeError,
  LIGHT_PALETTE,
  lightResponse,
  SKIN_POINTS,
  type FaceRegion,
} from './light.js';
import type { RgbImage } from './media.js';

const W = 320,
  H = 240,
  FPS = 8,
  SEGMENTS = 12,
  SEGMENT_S = 1;
const CX = 160,
  CY = 116,
  RX = 60,
  RY = 80;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Drawn as the ceremony draws: uniformly from the palette, never the same colour twice in a row. */
function randomSequence(seed: number, n = SEGMENTS): string[] {
  const r = prng(seed);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const pool = LIGHT_PALETTE.filter((c) => c !== out[k - 1]);
    out.push(pool[Math.floor(r() * pool.length)]);
  }
  return out;
}

const changes = Array.from({ length: SEGMENTS }, (_, k) => k * SEGMENT_S);
const times = Array.from({ length: FPS * SEGMENTS }, (_, i) => i / FPS);

/** The face is half an ellipsoid, DEPTH px deep, facing the camera (and the screen beside it). */
const DEPTH = 0.8 * RX;
/** Box width as Human reports it; the mesh's z is in 192ths of it. */
const BOX_W = 2 * RX;
const depthAt = (u: number, v: number) => DEPTH * Math.sqrt(Math.max(0, 1 - u * u - v * v));
/** Lambert factor of the face surface at (x, y): the cosine of its normal to the camera axis. */
function facingAt(x: number, y: number, cx = CX): number {
  const u = (x - cx) / RX,
    v = (y - CY) / RY;
  const q = 1 - u * u - v * v;
  if (q <= 0.02) return 0;
  const zx = (DEPTH * u) / (RX * Math.sqrt(q)),
    zy = (DEPTH * v) / (RY * Math.sqrt(q));
  return 1 / Math.sqrt(1 + zx * zx + zy * zy);
}

/** A face-like mesh: points over the ellipsoid (z in mesh units), the oval on its rim, eye corners, skin points on forehead and cheeks. */
function mesh(dx = 0): FaceRegion {
  const zUnit = (x: number, y: number) => -depthAt((x - CX - dx) / RX, (y - CY) / RY) / (BOX_W / 192);
  const m: number[][] = [];
  for (let gy = -0.95; gy <= 0.95 && m.length < 468; gy += 0.1)
    for (let gx = -0.95; gx <= 0.95 && m.length < 468; gx += 0.1) {
      if (gx * gx + gy * gy > 0.9) continue;
      const x = CX + dx + gx * RX,
        y = CY + gy * RY;
      m.push([x, y, zUnit(x, y)]);
    }
  while (m.length < 468) m.push([CX + dx, CY, zUnit(CX + dx, CY)]);
  IDX.faceOval.forEach((i, k) => {
    const a = (2 * Math.PI * k) / IDX.faceOval.length;
    m[i] = [CX + dx + RX * Math.sin(a), CY - RY * Math.cos(a), 0];
  });
  m[IDX.rightEye.outer] = [CX + dx - 24, CY - 16, zUnit(CX + dx - 24, CY - 16)];
  m[IDX.leftEye.outer] = [CX + dx + 24, CY - 16, zUnit(CX + dx + 24, CY - 16)];
  const spots: [number, number][] = [
    [0, -26],
    [-9, -24],
    [9, -24],
    [-17, 4],
    [-10, 2],
    [-13, 14],
    [17, 4],
    [10, 2],
    [13, 14],
  ];
  SKIN_POINTS.forEach((i, k) => {
    const x = CX + dx + 2 * spots[k][0],
      y = CY + 2 * spots[k][1];
    m[i] = [x, y, zUnit(x, y)];
  });
  return { mesh: m, box: [CX + dx - RX, CY - RY, BOX_W, 2 * RY] };
}

/** Screen light at t (linear RGB): `lag` late, first-order ramp. */
function lightAt(seq: readonly string[], t: number, lag: number, ramp = 0.12): number[] {
  const out = [0, 0, 0];
  let prev = [0, 0, 0];
  seq.forEach((c, k) => {
    const x = t - changes[k] - lag;
    if (x <= 0) return;
    const l = hexToLinear(c);
    const r = 1 - Math.exp(-x / ramp);
    for (let ch = 0; ch < 3; ch++) out[ch] += (l[ch] - prev[ch]) * r;
    prev = l;
  });
  return out;
}

interface VideoOpts {
  /** sequence the face reflects (null: no light) */
  face: readonly string[] | null;
  faceStrength?: number;
  lag?: number;
  /** whole-frame per-channel gain at time t (white-balance drift, an overlay) */
  global?: (t: number) => number[];
  /** the face's light: by each point's orientation to the screen (default), or a uniform tint of
   *  the face at the same mean strength (a puppet painting the colour on) */
  shading?: 'physics' | 'uniform';
  seed?: number;
}

/** The mean Lambert factor over the skin discs of the frontal face: a uniform tint this strong
 *  gives the same mean response as physics. */
const UNIFORM_SHADE = (() => {
  const m = mesh().mesh;
  return SKIN_POINTS.reduce((s, i) => s + facingAt(m[i][0], m[i][1]), 0) / SKIN_POINTS.length;
})();

/** Frames of a skin-coloured half-ellipsoid over a textured background, lit by its orientation, with sensor noise. */
function video(o: VideoOpts): { frames: RgbImage[]; faces: FaceRegion[] } {
  const r = prng(o.seed ?? 7);
  const bg = Uint8Array.from({ length: W * H * 3 }, (_, i) => 90 + ((i * 37) % 23) + (i % 3) * 10);
  const frames: RgbImage[] = [];
  const faces: FaceRegion[] = [];
  for (const t of times) {
    const dx = Math.round(4 * Math.sin(t)); // a little head motion
    const light = o.face ? lightAt(o.face, t, o.lag ?? 0.1) : [0, 0, 0];
    const g = o.global ? o.global(t) : [1, 1, 1];
    const k = o.faceStrength ?? 0.04;
    const data = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        const inFace = ((x - CX - dx) / RX) ** 2 + ((y - CY) / RY) ** 2 <= 1;
        const shade = o.shading === 'uniform' ? UNIFORM_SHADE : facingAt(x, y, CX + dx);
        for (let c = 0; c < 3; c++) {
          const base = inFace ? [200, 150, 120][c] : bg[i + c];
          const v = base * (1 + (inFace ? k * shade : k / 10) * light[c]) * g[c] + (r() - 0.5) * 8;
          data[i + c] = Math.max(0, Math.min(255, Math.round(v)));
        }
      }
    frames.push({ width: W, height: H, data });
    faces.push(mesh(dx));
  }
  return { frames, faces };
}

const issued = randomSequence(101);
const check = (v: { frames: RgbImage[]; faces: (FaceRegion | null)[] }, colours: readonly string[]) =>
  lightResponse({ frames: v.frames, times, faces: v.faces, colours, changes });

// Each case runs the 200-sequence null on synthetic frames: ~1 s idle, over 10 s on a loaded 2-core machine.
describe('lightResponse', { timeout: 60_000 }, () => {
  const genuine = video({ face: issued });

  it('passes a face tinted per the issued sequence, at about the right lag', () => {
    const r = check(genuine, issued);
    expect(r.passed, r.detail).toBe(true);
    expect(r.score).toBeGreaterThan(0.9);
    expect(r.nullRank).toBe(1);
    expect(r.agreement).toBe(1);
    expect(r.amplitude).toBeGreaterThan(analysisConfig.light.minAmplitude);
    expect(r.lagS).toBeGreaterThanOrEqual(0);
    expect(r.lagS).toBeLessThanOrEqual(0.25);
    expect(r.background).toBe(true);
  });

  it('passes light that follows the orientation of each skin region to the screen', () => {
    const r = check(genuine, issued);
    console.info(`synthetic genuine: ${r.detail}`);
    expect(r.orientation, r.detail).not.toBeNull();
    expect(r.orientation!).toBeGreaterThan(0.8);
    expect(r.orientation!).toBeLessThan(1.2);
  });

  it('fails a uniform tint of the face in the issued colours (a puppet painting the colour on), which every other gate passes', () => {
    const tint = video({ face: issued, shading: 'uniform' });
    const r = check(tint, issued);
    console.info(`synthetic uniform tint: ${r.detail}`);
    expect(r.passed, r.detail).toBe(false);
    expect(r.orientation!, r.detail).toBeLessThan(0.25);
    expect(r.detail).toMatch(/following the skin's orientation/);
    // the same capture passes with the orientation gate open: it is that gate which stops it
    const open = lightResponse(
      { frames: tint.frames, times, faces: tint.faces, colours: issued, changes },
      { ...analysisConfig.light, minOrientation: -Infinity },
    );
    expect(open.passed, open.detail).toBe(true);
    expect(open.score).toBeGreaterThan(0.9);
  });

  it('fails when the orientation cannot be measured (a flat mesh: every region faces the screen alike)', () => {
    const flat = genuine.faces.map((f) => ({ mesh: f.mesh.map((p) => [p[0], p[1], 0]), box: f.box }));
    const r = lightResponse({ frames: genuine.frames, times, faces: flat, colours: issued, changes });
    expect(r.orientation).toBeNull();
    expect(r.passed, r.detail).toBe(false);
    expect(r.detail).toMatch(/orientation not measurable/);
  });

  it('fails the same video checked against other sequences', () => {
    for (let s = 0; s < 20; s++) {
      const other = randomSequence(500 + s);
      const r = check(genuine, other);
      expect(r.passed, `${other.join(',')}: ${r.detail}`).toBe(false);
    }
  });

  it('rejects a wrong sequence by each gate alone: the score, the null distribution, the segment agreement', () => {
    const open = {
      ...analysisConfig.light,
      minScore: -1,
      nullSequences: 0,
      minAgreement: 0,
      minAmplitude: -1,
      minOrientation: -Infinity,
    };
    const gates = {
      score: { minScore: analysisConfig.light.minScore },
      null: { nullSequences: analysisConfig.light.nullSequences },
      agreement: { minAgreement: analysisConfig.light.minAgreement },
    };
    const input = { frames: genuine.frames, times, faces: genuine.faces, changes };
    expect(lightResponse({ ...input, colours: randomSequence(500) }, open).passed).toBe(true);
    for (const [name, gate] of Object.entries(gates)) {
      expect(lightResponse({ ...input, colours: issued }, { ...open, ...gate }).passed, name).toBe(true);
      expect(lightResponse({ ...input, colours: randomSequence(500) }, { ...open, ...gate }).passed, name).toBe(false);
    }
  });

  it('leaves out a disc that shows something else than the skin (the background past a turned cheek)', () => {
    // for 1.5 s the three right-cheek discs land beside the face, on the background
    const faces = genuine.faces.map((f, i) => {
      if (times[i] < 5 || times[i] >= 6.5) return f;
      const m = f.mesh.map((p) => [...p]);
      for (const k of SKIN_POINTS.slice(6)) m[k] = [CX + RX + 25, m[k][1], 0];
      return { ...f, mesh: m };
    });
    const input = { frames: genuine.frames, times, faces, colours: issued, changes };
    const r = lightResponse(input);
    expect(r.passed, r.detail).toBe(true);
    expect(r.score).toBeGreaterThan(0.9);
    const kept = lightResponse(input, { ...analysisConfig.light, patchOutlier: Infinity });
    expect(kept.score, kept.detail).toBeLessThan(r.score - 0.2);
  });

  it('fails the reversed and a shuffled issued sequence', () => {
    const reversed = [...issued].reverse();
    const shuffled = issued.map((_, k) => issued[(k * 5 + 3) % SEGMENTS]);
    for (const s of [reversed, shuffled]) {
      const r = check(genuine, s);
      expect(r.passed, r.detail).toBe(false);
      expect(r.score).toBeLessThan(analysisConfig.light.minScore);
    }
  });

  it('fails a sequence that differs in a third of its segments by a neighbouring hue, though it correlates', () => {
    const near = issued.map((c, k) =>
      k % 3 === 0 ? LIGHT_PALETTE[(LIGHT_PALETTE.indexOf(c as never) + 1) % LIGHT_PALETTE.length] : c,
    );
    const r = check(genuine, near);
    expect(r.score).toBeGreaterThan(analysisConfig.light.minScore);
    expect(r.agreement).toBeLessThan(analysisConfig.light.minAgreement);
    expect(r.passed, r.detail).toBe(false);
  });

  it('fails a video with no tint', () => {
    const r = check(video({ face: null }), issued);
    expect(r.passed, r.detail).toBe(false);
    expect(r.amplitude).toBeLessThan(analysisConfig.light.minAmplitude);
  });

  it('fails a whole-frame tint (white-balance drift) that does not follow the sequence', () => {
    const drift = (t: number) => [1 + 0.05 * Math.sin(t * 1.3), 1, 1 + 0.05 * Math.cos(t * 0.9)];
    expect(check(video({ face: null, global: drift }), issued).passed).toBe(false);
    // a whole-frame tint following another sequence: what a white-balance jump or a lamp would do
    const other = randomSequence(77);
    const lamp = (t: number) => lightAt(other, t, 0.1).map((l) => 1 + 0.06 * l);
    expect(check(video({ face: null, global: lamp }), issued).passed).toBe(false);
  });

  it('fails a whole-frame overlay that follows the issued sequence (the background changes with the face)', () => {
    const overlay = (t: number) => lightAt(issued, t, 0.1).map((l) => 1 + 0.05 * l);
    const r = check(video({ face: null, global: overlay }), issued);
    expect(r.passed, r.detail).toBe(false);
    // without the background reference only the orientation gate stops it (the overlay tints every
    // region alike); with neither it would have passed
    const input = {
      frames: video({ face: null, global: overlay }).frames,
      times,
      faces: genuine.faces,
      colours: issued,
      changes,
    };
    const noBg = { ...analysisConfig.light, backgroundWeight: 0, requireBackground: false };
    const orientOnly = lightResponse(input, noBg);
    expect(orientOnly.passed, orientOnly.detail).toBe(false);
    expect(orientOnly.orientation!).toBeLessThan(0.25);
    const neither = lightResponse(input, { ...noBg, minOrientation: -Infinity });
    expect(neither.passed, neither.detail).toBe(true);
  });

  it('fails closed when no background is visible beside the face', () => {
    const r = lightResponse(
      { frames: genuine.frames, times, faces: genuine.faces, colours: issued, changes },
      { ...analysisConfig.light, backgroundMargin: 10 },
    );
    expect(r.passed).toBe(false);
    expect(r.background).toBe(false);
    expect(r.detail).toMatch(/no usable background/);
  });

  it('keeps passing a genuine response under a white-balance drift', () => {
    const drift = (t: number) => [1 + 0.04 * Math.sin(t * 1.3), 1, 1 + 0.04 * Math.cos(t * 0.9)];
    const r = check(video({ face: issued, global: drift }), issued);
    expect(r.passed, r.detail).toBe(true);
  });

  it('passes a response lagged within the search range and reports the lag', () => {
    const r = check(video({ face: issued, lag: 0.45 }), issued);
    expect(r.passed, r.detail).toBe(true);
    expect(r.lagS).toBeGreaterThanOrEqual(0.35);
    expect(r.lagS).toBeLessThanOrEqual(0.55);
  });

  it('fails a response lagged far outside the search range', () => {
    const r = check(video({ face: issued, lag: 1.5 }), issued);
    expect(r.passed, r.detail).toBe(false);
  });

  it('fails a response too weak to be the screen', () => {
    const r = check(video({ face: issued, faceStrength: 0.004 }), issued);
    expect(r.passed, r.detail).toBe(false);
  });

  it('fails when the face is missing from most frames', () => {
    const faces = genuine.faces.map((f, i) => (i % 3 === 0 ? f : null));
    const r = lightResponse({ frames: genuine.frames, times, faces, colours: issued, changes });
    expect(r.passed).toBe(false);
    expect(r.detail).toMatch(/too few usable frames/);
  });

  it('refuses a colour outside the palette and a malformed timeline', () => {
    const base = { frames: genuine.frames, times, faces: genuine.faces };
    expect(() => lightResponse({ ...base, colours: ['#123456', ...issued.slice(1)], changes })).toThrow(
      InvalidLightChallengeError,
    );
    expect(() => lightResponse({ ...base, colours: issued, changes: changes.slice(1) })).toThrow(InvalidLightChallengeError);
  });

  // Its speed is the verdict bench's to measure (test/bench/biometrics.bench.ts), not a timed assertion.
  it('is deterministic', () => {
    const a = check(genuine, issued);
    expect(check(genuine, issued)).toEqual(a);
  });
});

describe('the flash window at the capture own rate (flashWindow, facesAt, flashFrames)', () => {
  it('reads from preS before the flash segment to postS after it, a sample wider; none without flashes', () => {
    const cfg = { preS: 0.25, postS: 0.5 };
    const light = { changes: [0, 1, 2, 2.25, 2.5, 2.75, 3, 4], end: 5, flash: { first: 2, count: 4 } };
    const w = flashWindow(light, cfg)!;
    expect(w.start).toBeCloseTo(2 - 0.25 - 0.05, 9);
    expect(w.end).toBeCloseTo(3 + 0.5 + 0.05, 9);
    // flashes last: they end with the timeline; steps past its end are no flashes
    expect(flashWindow({ ...light, flash: { first: 4, count: 4 } }, cfg)!.end).toBeCloseTo(5 + 0.5 + 0.05, 9);
    expect(flashWindow({ ...light, flash: { first: 5, count: 4 } }, cfg)).toBeNull();
    expect(flashWindow({ changes: [0, 1, 1.25, 1.5, 1.75], end: 2.5, flash: { first: 1, count: 4 } }, cfg)!.end).toBeCloseTo(
      3.05,
      9,
    );
    expect(flashWindow({ changes: light.changes, end: 5 }, cfg)).toBeNull();
    expect(flashWindow({ ...light, flash: { first: -1, count: 4 } }, cfg)).toBeNull();
  });

  it('gives a frame between two sampled faces their interpolation, else the nearer within a sampling interval', () => {
    const f = (x: number): FaceRegion => ({
      mesh: [
        [x, 10, 1],
        [x + 2, 20],
      ],
      box: [x, 0, 10, 10],
    });
    const times = [0, 0.125, 0.25, 0.375, 0.5];
    const faces = [f(0), f(8), null, f(40), null];
    const mid = facesAt(times, faces, 0.0625)!;
    expect(mid.mesh).toEqual([
      [4, 10, 1],
      [6, 20, 0],
    ]);
    expect(mid.box).toEqual([4, 0, 10, 10]);
    // a missing neighbour: the nearer face, if within one interval
    expect(facesAt(times, faces, 0.2)).toBe(faces[1]);
    expect(facesAt(times, faces, 0.3)).toBe(faces[3]);
    expect(facesAt(times, faces, 0.45)).toBe(faces[3]);
    expect(facesAt(times, [null, null, null, null, null], 0.2)).toBeNull();
    // past the last sampled frame by more than an interval
    expect(facesAt(times, faces, 0.7)).toBeNull();
    expect(facesAt(times, faces, 0)!.mesh[0]).toEqual(faces[0]!.mesh[0]);
  });

  it('leaves the light check of the sampled frames as it was: only the flash check reads the window', () => {
    const g = video({ face: issued });
    const plain = check(g, issued);
    const dense = lightResponse({
      frames: g.frames,
      times,
      faces: g.faces,
      colours: issued,
      changes,
      // extra frames of another light entirely, with faces: they must not move any of the light's gates
      flashFrames: { frames: g.frames.slice(0, 8).reverse(), times: times.slice(0, 8), faces: g.faces.slice(0, 8) },
    });
    expect(dense.score).toBe(plain.score);
    expect(dense.lagS).toBe(plain.lagS);
    expect(dense.nullQuantile).toBe(plain.nullQuantile);
    expect(dense.amplitude).toBe(plain.amplitude);
    expect(dense.agreement).toBe(plain.agreement);
    expect(dense.orientation).toBe(plain.orientation);
    expect(dense.flash).toBeNull(); // this sequence issued no flashes

    // two of its segments taken as the flash steps: measured on the sampled frames without a window,
    // on the window's frames with one (here without a face on any: nothing to measure)
    const flash = { first: 3, count: 2 };
    const sampled = lightResponse({ frames: g.frames, times, faces: g.faces, colours: issued, changes, flash });
    expect(sampled.flash!.frames).toBe(2 * FPS);
    const faceless = lightResponse({
      frames: g.frames,
      times,
      faces: g.faces,
      colours: issued,
      changes,
      flash,
      flashFrames: { frames: g.frames.slice(20, 40), times: times.slice(20, 40), faces: g.faces.slice(20, 40).map(() => null) },
    });
    expect(faceless.flash).toMatchObject({ reason: 'not_measurable', frames: 0 });
  });
});
