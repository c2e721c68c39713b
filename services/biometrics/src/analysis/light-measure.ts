/**
 * What the light check measures in a frame: the skin's and the background's mean colour beside
 * the face (log-chromaticity), and the expected shift of each palette colour (light.ts).
 */
import { IDX, interOcular, type Pt } from './geometry.js';
import type { LightConfig } from './light.js';
import type { RgbImage } from './media.js';

/** A light challenge that cannot be checked as issued (a programming or protocol error). */
export class InvalidLightChallengeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidLightChallengeError';
  }
}

/**
 * Skin patches: forehead (centre and both sides) and both cheeks (outer, under-eye, lower). Discs
 * around these mesh points stay clear of eyes, brows, nostrils, mouth and hair on frontal and
 * moderately turned faces.
 */
export const SKIN_POINTS = [151, 108, 337, 50, 101, 205, 280, 330, 425] as const;

/** sRGB '#rrggbb' → linear-light RGB (0…1). */
export function hexToLinear(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new InvalidLightChallengeError(`not a #rrggbb colour: ${hex}`);
  const lin = (s: string) => {
    const v = parseInt(s, 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return [lin(m[1]), lin(m[2]), lin(m[3])];
}

/**
 * Expected log-chromaticity deviation per palette colour: light added to the ambient changes
 * log(channel) by ≈ k·L_c/A_c, the same for every skin albedo; remove the palette mean and the
 * channel mean (brightness).
 */
export function expectedVectors(palette: readonly string[]): number[][] {
  const lin = palette.map(hexToLinear);
  const mean = [0, 1, 2].map((c) => lin.reduce((s, l) => s + l[c], 0) / lin.length);
  return lin.map((l) => {
    const d = l.map((v, c) => v - mean[c]);
    const m = (d[0] + d[1] + d[2]) / 3;
    return d.map((v) => v - m);
  });
}

/** Deterministic PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Vec3 = [number, number, number];

export const logChroma = (rgb: Vec3): Vec3 => {
  const l = rgb.map((v) => Math.log(v + 1));
  const m = (l[0] + l[1] + l[2]) / 3;
  return [l[0] - m, l[1] - m, l[2] - m];
};

/** One skin disc in one frame: the mean RGB of its usable pixels and how many there were. */
export interface Patch {
  rgb: Vec3;
  n: number;
}

/** Mean RGB of the unclipped pixels in each disc around the skin points (null: no usable pixel). */
export function skinPatches(
  img: RgbImage,
  mesh: readonly Pt[],
  cfg: LightConfig,
  points: readonly number[] = SKIN_POINTS,
): (Patch | null)[] {
  const io = interOcular(mesh);
  if (!(io > 0)) return points.map(() => null);
  const r = Math.max(1.5, cfg.patchRadius * io);
  const r2 = r * r;
  const { width: w, height: h, data } = img;
  return points.map((idx) => {
    const p = mesh[idx];
    if (!p) return null;
    const cx = p[0],
      cy = p[1];
    let sr = 0,
      sg = 0,
      sb = 0,
      n = 0;
    for (let y = Math.max(0, Math.ceil(cy - r)); y <= Math.min(h - 1, Math.floor(cy + r)); y++) {
      const dy = y - cy;
      for (let x = Math.max(0, Math.ceil(cx - r)); x <= Math.min(w - 1, Math.floor(cx + r)); x++) {
        const dx = x - cx;
        if (dx * dx + dy * dy > r2) continue;
        const i = (y * w + x) * 3;
        const R = data[i],
          G = data[i + 1],
          B = data[i + 2];
        if (R >= 250 || G >= 250 || B >= 250 || R + G + B < 30) continue; // clipped or in deep shadow
        sr += R;
        sg += G;
        sb += B;
        n++;
      }
    }
    return n > 0 ? { rgb: [sr / n, sg / n, sb / n], n } : null;
  });
}

const medianOf = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Each disc's chromaticity change per frame, relative to the signer's own baseline: the disc's log
 * colour minus that disc's median over the capture, brightness removed. A disc whose chromaticity
 * moved far more than light from a screen can move skin (`patchOutlier` × the median change of all
 * discs, at least `patchOutlierMin`) no longer shows the same skin — the background past the far
 * cheek of a turned head, hair, a hand — and is left out of that frame (null).
 */
export function discChanges(
  frames: readonly ((Patch | null)[] | null)[],
  cfg: LightConfig,
  /** the frames[0 … baseCount) the medians and the outlier limit are taken from (default: all); the
   *  others are measured against them (the flash segment's extra frames, light.ts) */
  baseCount = frames.length,
): ((Vec3 | null)[] | null)[] {
  const P = frames.find((f) => f)?.length ?? 0;
  const logs = frames.map((ps) => (ps ? ps.map((p) => (p ? (p.rgb.map((v) => Math.log(v + 1)) as Vec3) : null)) : null));
  const base: (Vec3 | null)[] = [];
  for (let k = 0; k < P; k++) {
    const xs = logs
      .slice(0, baseCount)
      .map((l) => l?.[k])
      .filter((x): x is Vec3 => !!x);
    base.push(xs.length ? ([0, 1, 2].map((c) => medianOf(xs.map((x) => x[c]))) as Vec3) : null);
  }
  const dev = logs.map((ls) =>
    ls ? ls.map((x, k) => (x && base[k] ? ([0, 1, 2].map((c) => x[c] - base[k]![c]) as Vec3) : null)) : null,
  );
  const chromaNorm = (d: Vec3) => {
    const m = (d[0] + d[1] + d[2]) / 3;
    return Math.hypot(d[0] - m, d[1] - m, d[2] - m);
  };
  const norms = dev.slice(0, baseCount).flatMap((ds) => (ds ?? []).filter((d): d is Vec3 => !!d).map(chromaNorm));
  const limit = norms.length ? Math.max(cfg.patchOutlierMin, cfg.patchOutlier * medianOf(norms)) : Infinity;
  return dev.map((ds) => (ds ? ds.map((d) => (d && chromaNorm(d) <= limit ? d : null)) : null));
}

/**
 * The skin's chromaticity change per frame: each disc's change (discChanges) averaged over the
 * frame's discs weighted by their light (pixels × mean value, per channel: to first order the
 * change of the discs' pooled mean colour), brightness removed; per disc, so leaving one out does
 * not shift the mean. Null where fewer than `minSkinPixels` remain.
 */
export function skinChanges(
  frames: readonly ((Patch | null)[] | null)[],
  cfg: LightConfig,
  discs: ((Vec3 | null)[] | null)[] = discChanges(frames, cfg),
): (Vec3 | null)[] {
  return discs.map((ds, i) => {
    if (!ds) return null;
    const sum = [0, 0, 0],
      wsum = [0, 0, 0];
    let n = 0;
    ds.forEach((d, k) => {
      const p = frames[i]![k];
      if (!d || !p) return;
      for (let c = 0; c < 3; c++) {
        sum[c] += p.n * p.rgb[c] * d[c];
        wsum[c] += p.n * p.rgb[c];
      }
      n += p.n;
    });
    if (n < cfg.minSkinPixels) return null;
    const l = [0, 1, 2].map((c) => sum[c] / wsum[c]);
    const m = (l[0] + l[1] + l[2]) / 3;
    return [l[0] - m, l[1] - m, l[2] - m] as Vec3;
  });
}

/**
 * Mean RGB of the background: a sparse grid outside an ellipse of `backgroundMargin` × the face
 * oval, and not in the band below the face (neck, body: they are nearer the screen).
 */
export function backgroundMean(img: RgbImage, mesh: readonly Pt[], cfg: LightConfig): Vec3 | null {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (const i of IDX.faceOval) {
    const p = mesh[i];
    if (!p) return null;
    x0 = Math.min(x0, p[0]);
    x1 = Math.max(x1, p[0]);
    y0 = Math.min(y0, p[1]);
    y1 = Math.max(y1, p[1]);
  }
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2;
  const rx = ((x1 - x0) / 2) * cfg.backgroundMargin,
    ry = ((y1 - y0) / 2) * cfg.backgroundMargin;
  if (!(rx > 0 && ry > 0)) return null;
  const { width: w, height: h, data } = img;
  const step = Math.max(1, Math.round(cfg.backgroundStep));
  let sr = 0,
    sg = 0,
    sb = 0,
    n = 0;
  for (let y = 0; y < h; y += step) {
    const dy = (y - cy) / ry;
    for (let x = 0; x < w; x += step) {
      const dx = (x - cx) / rx;
      if (dx * dx + dy * dy <= 1) continue;
      if (y > cy && Math.abs(x - cx) <= rx) continue; // neck and body
      const i = (y * w + x) * 3;
      const R = data[i],
        G = data[i + 1],
        B = data[i + 2];
      if (R >= 250 || G >= 250 || B >= 250 || R + G + B < 30) continue;
      sr += R;
      sg += G;
      sb += B;
      n++;
    }
  }
  return n >= cfg.minBackgroundPixels ? [sr / n, sg / n, sb / n] : null;
}
