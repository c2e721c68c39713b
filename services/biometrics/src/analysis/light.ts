/**
 * The light challenge: the signing page shows a random sequence of screen colours on a
 * server-issued timeline and the face reflects it. This checks that the skin's chromaticity
 * follows the issued sequence, relative to the signer's own baseline and to the background (so a
 * global white-balance shift does not count), against a null distribution of random sequences
 * from the same palette on the same timeline. A recording made before the sequence was drawn
 * cannot follow it. Pure: no I/O, no models.
 */
import { analysisConfig } from './config.js';
import { IDX, interOcular, median, type Pt } from './geometry.js';
import type { RgbImage } from './media.js';

/**
 * The screen colours the ceremony draws from (uniformly, one per segment): the six saturated hues.
 * In log-chromaticity each is a full-length deviation from the palette mean (white would be none,
 * so red/green/blue/white carries 25 % less signal), and of the palettes measured (RGBW, RGB,
 * red/cyan/blue/yellow, four hues 90° apart, these six) it left the fewest wrong sequences scoring
 * high: docs/decisions.md, "Light challenge".
 */
export const LIGHT_PALETTE = ['#ff0000', '#ffff00', '#00ff00', '#00ffff', '#0000ff', '#ff00ff'] as const;

/** The primary face of one frame: its 468-point mesh in frame pixels. */
export interface FaceRegion {
  mesh: readonly Pt[];
}

export interface LightConfig {
  /** radius of each skin patch, inter-ocular units */
  patchRadius: number;
  minSkinPixels: number;
  /** background sampled every `backgroundStep` px outside `backgroundMargin` × the face oval */
  backgroundStep: number;
  backgroundMargin: number;
  minBackgroundPixels: number;
  /** background subtraction is used when this fraction of face frames has a usable background */
  minBackgroundFraction: number;
  backgroundWeight: number;
  /** fail when there is no usable background (else the check runs on the skin alone, and a
   *  whole-frame tint following the sequence would pass) */
  requireBackground: boolean;
  lagMinS: number;
  lagMaxS: number;
  lagStepS: number;
  /** first-order time constant of the camera's response to a colour change */
  rampS: number;
  /** polynomial (in time) removed from observed and expected signals: 0 = mean, 1 = linear drift */
  detrendDegree: number;
  minFrames: number;
  /** usable frames / frames inside the timeline */
  minCoverage: number;
  minScore: number;
  nullSequences: number;
  nullQuantile: number;
  nullSeed: number;
  /** the ceremony never shows the same colour twice in a row: the null sequences are drawn so too */
  noRepeat: boolean;
  /** RMS log-chromaticity response explained by the issued sequence */
  minAmplitude: number;
  /** fraction of segments whose settled response is nearest to the issued colour of all palette colours */
  minAgreement: number;
  /** a frame counts as settled this long after its segment's change (plus the lag) */
  settleS: number;
}

export interface LightInput {
  frames: readonly RgbImage[];
  /** media time of each frame, seconds */
  times: readonly number[];
  /** per frame: the primary face or null */
  faces: readonly (FaceRegion | null)[];
  /** '#rrggbb' per segment */
  colours: readonly string[];
  /** media time (s) from which colour k was shown */
  changes: readonly number[];
  /** when the last colour stopped (s); default: last change + the median segment length */
  end?: number;
  /** the palette the colours were drawn from (the null distribution draws from it) */
  palette?: readonly string[];
}

export interface LightResult {
  passed: boolean;
  /** correlation of observed and expected chromaticity at the best lag (−1…1) */
  score: number;
  /** the absolute minimum score */
  threshold: number;
  lagS: number;
  /** the null quantile the score had to exceed, and the fraction of null sequences below the score */
  nullQuantile: number;
  nullRank: number;
  /** RMS log-chromaticity response explained by the issued sequence (≈ fraction of the skin colour) */
  amplitude: number;
  minAmplitude: number;
  /** fitted response / residual RMS */
  snr: number;
  /** fraction of segments whose settled response is nearest to the issued colour (of all palette colours) */
  agreement: number;
  minAgreement: number;
  framesUsed: number;
  coverage: number;
  background: boolean;
  detail: string;
}

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
function expectedVectors(palette: readonly string[]): number[][] {
  const lin = palette.map(hexToLinear);
  const mean = [0, 1, 2].map((c) => lin.reduce((s, l) => s + l[c], 0) / lin.length);
  return lin.map((l) => {
    const d = l.map((v, c) => v - mean[c]);
    const m = (d[0] + d[1] + d[2]) / 3;
    return d.map((v) => v - m);
  });
}

/** Deterministic PRNG (mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Vec3 = [number, number, number];

const logChroma = (rgb: Vec3): Vec3 => {
  const l = rgb.map((v) => Math.log(v + 1));
  const m = (l[0] + l[1] + l[2]) / 3;
  return [l[0] - m, l[1] - m, l[2] - m];
};

/** Mean RGB of unclipped pixels in discs around the skin points; null when too few. */
function skinMean(img: RgbImage, mesh: readonly Pt[], cfg: LightConfig): Vec3 | null {
  const io = interOcular(mesh);
  if (!(io > 0)) return null;
  const r = Math.max(1.5, cfg.patchRadius * io);
  const r2 = r * r;
  const { width: w, height: h, data } = img;
  let sr = 0,
    sg = 0,
    sb = 0,
    n = 0;
  for (const idx of SKIN_POINTS) {
    const p = mesh[idx];
    if (!p) continue;
    const cx = p[0],
      cy = p[1];
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
  }
  return n >= cfg.minSkinPixels ? [sr / n, sg / n, sb / n] : null;
}

/**
 * Mean RGB of the background: a sparse grid outside an ellipse of `backgroundMargin` × the face
 * oval, and not in the band below the face (neck, body: they are nearer the screen).
 */
function backgroundMean(img: RgbImage, mesh: readonly Pt[], cfg: LightConfig): Vec3 | null {
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

/** Orthonormal basis (Gram–Schmidt) of the polynomials 1, t, … t^degree over the given times. */
function polyBasis(ts: readonly number[], degree: number): Float64Array[] {
  const n = ts.length;
  const mid = n ? (ts[0] + ts[n - 1]) / 2 : 0;
  const span = n > 1 ? Math.max(1e-6, (ts[n - 1] - ts[0]) / 2) : 1;
  const basis: Float64Array[] = [];
  for (let d = 0; d <= degree; d++) {
    const v = Float64Array.from(ts, (t) => ((t - mid) / span) ** d);
    for (const b of basis) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += v[i] * b[i];
      for (let i = 0; i < n; i++) v[i] -= dot * b[i];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += v[i] * v[i];
    norm = Math.sqrt(norm);
    if (norm < 1e-9) continue;
    for (let i = 0; i < n; i++) v[i] /= norm;
    basis.push(v);
  }
  return basis;
}

/**
 * One lag of the search, reduced so that a colour sequence is scored in O(segments): the expected
 * signal is e_j = Σ_k w_jk·v(s_k) (segment weights w of frame j, palette vectors v), so
 *   ⟨o, e⟩ = Σ_k G[k][s_k] with G[k][p] = Σ_j w_jk ⟨o_j, v_p⟩,
 *   ‖e‖² = Σ_k,k' M[k][k']·⟨v(s_k), v(s_k')⟩ with M = Wᵀ W (banded: neighbouring segments),
 * and the detrending basis b removes Σ_b Σ_c (Σ_k B[b][k]·v(s_k)_c)² with B[b][k] = Σ_j b_j w_jk.
 * The observations o are detrended once, so ⟨o, e⟩ needs no projection.
 */
interface LagPlan {
  lag: number;
  /** frames used */
  n: number;
  /** G[k * P + p] */
  g: Float64Array;
  /** banded M: for each k, the segments k' ≥ k it overlaps and M[k][k'] (off-diagonal counted twice) */
  band: { k2: Int32Array; m: Float64Array }[];
  /** B[b * K + k] */
  bw: Float64Array;
  nb: number;
  obsNorm2: number;
}

function planLag(
  lag: number,
  times: readonly number[],
  obs: readonly (Vec3 | null)[],
  changes: readonly number[],
  end: number,
  vecs: readonly number[][],
  cfg: LightConfig,
): LagPlan {
  const K = changes.length,
    P = vecs.length;
  const idx: number[] = [];
  for (let i = 0; i < times.length; i++) if (obs[i] && times[i] >= changes[0] + lag && times[i] <= end + lag) idx.push(i);
  const n = idx.length;
  const tau = Math.max(1e-3, cfg.rampS);
  const ramp = (x: number) => (x <= 0 ? 0 : 1 - Math.exp(-x / tau));
  // detrend the observations
  const basis = polyBasis(
    idx.map((i) => times[i]),
    Math.min(cfg.detrendDegree, Math.max(0, n - 2)),
  );
  const o = new Float64Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const v = o.subarray(c * n, (c + 1) * n);
    idx.forEach((i, j) => (v[j] = obs[i]![c]));
    for (const b of basis) {
      let dot = 0;
      for (let j = 0; j < n; j++) dot += v[j] * b[j];
      for (let j = 0; j < n; j++) v[j] -= dot * b[j];
    }
  }
  let obsNorm2 = 0;
  for (const v of o) obsNorm2 += v * v;
  const nb = basis.length;
  const g = new Float64Array(K * P);
  const mDense = new Float64Array(K * K);
  const bw = new Float64Array(nb * K);
  const ks: number[] = [];
  const ws: number[] = [];
  idx.forEach((i, j) => {
    const t = times[i] - lag;
    // weight of segment k: r_k(t) − r_{k+1}(t), with r_0 ≡ 1 and r_K ≡ 0 (frames after the end are not used)
    ks.length = 0;
    ws.length = 0;
    let prev = 1;
    for (let k = 0; k < K; k++) {
      const next = k + 1 < K ? ramp(t - changes[k + 1]) : 0;
      if (prev - next > 1e-4) {
        ks.push(k);
        ws.push(prev - next);
      }
      prev = next;
      if (next === 0 && k + 1 < K && changes[k + 1] >= t) break;
    }
    for (let q = 0; q < ks.length; q++) {
      const k = ks[q],
        w = ws[q];
      for (let p = 0; p < P; p++) g[k * P + p] += w * (o[j] * vecs[p][0] + o[n + j] * vecs[p][1] + o[2 * n + j] * vecs[p][2]);
      for (let q2 = 0; q2 < ks.length; q2++) mDense[k * K + ks[q2]] += w * ws[q2];
      for (let b = 0; b < nb; b++) bw[b * K + k] += basis[b][j] * w;
    }
  });
  const band = Array.from({ length: K }, (_, k) => {
    const k2: number[] = [];
    const m: number[] = [];
    for (let k1 = k; k1 < K; k1++)
      if (mDense[k * K + k1] !== 0) {
        k2.push(k1);
        m.push(mDense[k * K + k1] * (k1 === k ? 1 : 2));
      }
    return { k2: Int32Array.from(k2), m: Float64Array.from(m) };
  });
  return { lag, n, g, band, bw, nb, obsNorm2 };
}

interface Fit {
  corr: number;
  /** least-squares gain of observed on expected, and the expected signal's detrended norm² */
  gain: number;
  expNorm2: number;
}

/** Correlation of observed and expected for one colour sequence (palette indices) at one lag. */
function fitSequence(p: LagPlan, seq: Int32Array, vecs: readonly number[][], gram: Float64Array): Fit {
  const K = seq.length,
    P = vecs.length;
  let dot = 0,
    norm2 = 0;
  for (let k = 0; k < K; k++) {
    const sk = seq[k];
    dot += p.g[k * P + sk];
    const { k2, m } = p.band[k];
    for (let q = 0; q < k2.length; q++) norm2 += m[q] * gram[sk * P + seq[k2[q]]];
  }
  for (let b = 0; b < p.nb; b++) {
    let c0 = 0,
      c1 = 0,
      c2 = 0;
    for (let k = 0; k < K; k++) {
      const w = p.bw[b * K + k],
        v = vecs[seq[k]];
      c0 += w * v[0];
      c1 += w * v[1];
      c2 += w * v[2];
    }
    norm2 -= c0 * c0 + c1 * c1 + c2 * c2;
  }
  norm2 = Math.max(0, norm2);
  const denom = Math.sqrt(p.obsNorm2 * norm2);
  return { corr: denom > 1e-12 ? dot / denom : 0, gain: norm2 > 1e-12 ? dot / norm2 : 0, expNorm2: norm2 };
}

/** Best fit over the lag plans (highest correlation). */
function bestLag(plans: readonly LagPlan[], seq: Int32Array, vecs: readonly number[][], gram: Float64Array) {
  let best: { fit: Fit; plan: LagPlan } | null = null;
  for (const plan of plans) {
    if (plan.n < 3) continue;
    const fit = fitSequence(plan, seq, vecs, gram);
    if (!best || fit.corr > best.fit.corr) best = { fit, plan };
  }
  return best;
}

/**
 * Per-segment agreement: the mean observation over each segment's settled frames (at `lag`), the
 * fit r_k ≈ a·v(s_k) + b over segments with the issued sequence, then for each segment whether
 * r_k − b is nearest to a·v of its issued colour among all palette colours. Genuine responses
 * agree on (almost) every segment; a response to another sequence agrees where the two sequences
 * happen to coincide (one segment in six), which the correlation alone credits partly for every
 * near colour.
 */
function segmentAgreement(
  times: readonly number[],
  obs: readonly (Vec3 | null)[],
  changes: readonly number[],
  end: number,
  lag: number,
  seq: Int32Array,
  vecs: readonly number[][],
  settleS: number,
): number {
  const K = changes.length;
  const sum = new Float64Array(3 * K);
  const cnt = new Int32Array(K);
  let k = 0;
  for (let i = 0; i < times.length; i++) {
    const o = obs[i];
    const t = times[i] - lag;
    if (!o || t < changes[0] || t >= end) continue;
    while (k + 1 < K && changes[k + 1] <= t) k++;
    while (k > 0 && changes[k] > t) k--;
    if (t - changes[k] < settleS) continue;
    for (let c = 0; c < 3; c++) sum[3 * k + c] += o[c];
    cnt[k]++;
  }
  const ks: number[] = [];
  for (let q = 0; q < K; q++) if (cnt[q] > 0) ks.push(q);
  if (ks.length < 2) return 0;
  const r = (q: number, c: number) => sum[3 * q + c] / cnt[q];
  const mv = [0, 1, 2].map((c) => ks.reduce((s, q) => s + vecs[seq[q]][c], 0) / ks.length);
  const mr = [0, 1, 2].map((c) => ks.reduce((s, q) => s + r(q, c), 0) / ks.length);
  let num = 0,
    den = 0;
  for (const q of ks)
    for (let c = 0; c < 3; c++) {
      num += (r(q, c) - mr[c]) * (vecs[seq[q]][c] - mv[c]);
      den += (vecs[seq[q]][c] - mv[c]) ** 2;
    }
  const a = den > 0 ? num / den : 0;
  if (!(a > 0)) return 0;
  const b = [0, 1, 2].map((c) => mr[c] - a * mv[c]);
  let agree = 0;
  for (const q of ks) {
    let best = -1,
      bestD = Infinity;
    vecs.forEach((v, p) => {
      let d = 0;
      for (let c = 0; c < 3; c++) d += (r(q, c) - b[c] - a * v[c]) ** 2;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    });
    if (best === seq[q]) agree++;
  }
  return agree / ks.length;
}

/**
 * Check that the face's reflected light follows the issued colour sequence. See the module
 * comment; thresholds in `analysisConfig.light`.
 */
export function lightResponse(input: LightInput, cfg: LightConfig = analysisConfig.light): LightResult {
  const { frames, times, faces, colours, changes } = input;
  if (frames.length !== times.length || frames.length !== faces.length)
    throw new InvalidLightChallengeError('frames, times and faces differ in length');
  if (colours.length === 0 || colours.length !== changes.length)
    throw new InvalidLightChallengeError('colours and changes must be non-empty and of equal length');
  for (let k = 1; k < changes.length; k++)
    if (!(changes[k] > changes[k - 1])) throw new InvalidLightChallengeError('changes must increase');
  const palette = [...new Set((input.palette ?? LIGHT_PALETTE).map((c) => c.toLowerCase()))];
  const seq = Int32Array.from(colours, (c) => {
    const i = palette.indexOf(c.toLowerCase());
    if (i < 0) throw new InvalidLightChallengeError(`colour ${c} is not in the palette`);
    return i;
  });
  const vecs = expectedVectors(palette);
  const gaps = changes.slice(1).map((c, k) => c - changes[k]);
  const end = input.end ?? changes[changes.length - 1] + (gaps.length ? median(gaps) : 1);

  // ---- per-frame skin and background chromaticity
  const skin: (Vec3 | null)[] = [];
  const bg: (Vec3 | null)[] = [];
  for (let i = 0; i < frames.length; i++) {
    const f = faces[i];
    const s = f && f.mesh.length >= 468 ? skinMean(frames[i], f.mesh, cfg) : null;
    skin.push(s && logChroma(s));
    const b = s && f ? backgroundMean(frames[i], f.mesh, cfg) : null;
    bg.push(b && logChroma(b));
  }
  const skinFrames = skin.filter(Boolean).length;
  const bgFrames = bg.filter(Boolean).length;
  const useBg = cfg.backgroundWeight > 0 && skinFrames > 0 && bgFrames / skinFrames >= cfg.minBackgroundFraction;
  // observed: skin relative to the signer's own median (the baseline), minus the background's own change
  const med = (xs: (Vec3 | null)[], c: number) => median(xs.filter((x): x is Vec3 => x !== null).map((x) => x[c]));
  const skinMed = [0, 1, 2].map((c) => med(skin, c));
  const bgMed = [0, 1, 2].map((c) => (useBg ? med(bg, c) : 0));
  const obs: (Vec3 | null)[] = skin.map((s, i) => {
    if (!s) return null;
    const b = bg[i];
    if (useBg && !b) return null;
    const w = useBg ? cfg.backgroundWeight : 0;
    return [0, 1, 2].map((c) => s[c] - skinMed[c] - (b ? w * (b[c] - bgMed[c]) : 0)) as Vec3;
  });

  const inTimeline = times.filter((t) => t >= changes[0] && t <= end).length;
  const base = {
    threshold: cfg.minScore,
    minAmplitude: cfg.minAmplitude,
    background: useBg,
  };
  const fail = (detail: string, framesUsed = 0): LightResult => ({
    passed: false,
    score: 0,
    lagS: 0,
    nullQuantile: 1,
    nullRank: 0,
    amplitude: 0,
    snr: 0,
    agreement: 0,
    minAgreement: cfg.minAgreement,
    framesUsed,
    coverage: inTimeline ? framesUsed / inTimeline : 0,
    ...base,
    detail,
  });
  if (new Set(seq).size < 2) return fail('the issued sequence has a single colour');
  if (cfg.requireBackground && !useBg)
    return fail(`no usable background beside the face in ${bgFrames} of ${skinFrames} face frames`, skinFrames);

  // ---- lag search for the issued sequence
  const plans: LagPlan[] = [];
  const steps = Math.max(0, Math.round((cfg.lagMaxS - cfg.lagMinS) / cfg.lagStepS));
  for (let s = 0; s <= steps; s++)
    plans.push(planLag(Math.round((cfg.lagMinS + s * cfg.lagStepS) * 1000) / 1000, times, obs, changes, end, vecs, cfg));
  const P = vecs.length;
  const gram = new Float64Array(P * P);
  for (let a = 0; a < P; a++)
    for (let b = 0; b < P; b++) gram[a * P + b] = vecs[a][0] * vecs[b][0] + vecs[a][1] * vecs[b][1] + vecs[a][2] * vecs[b][2];
  const best = bestLag(plans, seq, vecs, gram);
  if (!best) return fail('no frames with a measurable face inside the light timeline');
  const framesUsed = best.plan.n;
  const coverage = inTimeline ? framesUsed / inTimeline : 0;
  if (framesUsed < cfg.minFrames || coverage < cfg.minCoverage)
    return fail(`too few usable frames: ${framesUsed} (${(coverage * 100).toFixed(0)} % of the timeline)`, framesUsed);

  // ---- null distribution: random sequences drawn as the ceremony draws, on the same timeline
  const rand = mulberry32(cfg.nullSeed);
  const nulls: number[] = [];
  const alt = new Int32Array(seq.length);
  for (let q = 0; q < cfg.nullSequences; q++) {
    for (let k = 0; k < alt.length; k++) {
      if (!cfg.noRepeat || k === 0) alt[k] = Math.min(palette.length - 1, Math.floor(rand() * palette.length));
      else {
        const c = Math.min(palette.length - 2, Math.floor(rand() * (palette.length - 1)));
        alt[k] = c >= alt[k - 1] ? c + 1 : c;
      }
    }
    nulls.push(bestLag(plans, alt, vecs, gram)?.fit.corr ?? 0);
  }
  nulls.sort((a, b) => a - b);
  const qIdx = Math.min(nulls.length - 1, Math.floor(cfg.nullQuantile * nulls.length));
  const nullQuantile = nulls.length ? nulls[qIdx] : -1;
  const nullRank = nulls.length ? nulls.filter((x) => x < best.fit.corr).length / nulls.length : 1;

  // ---- amplitude: RMS of the fitted response; snr against the residual
  const { corr, gain, expNorm2 } = best.fit;
  const samples = 3 * framesUsed;
  const fitted2 = gain * gain * expNorm2;
  const amplitude = Math.sqrt(Math.max(0, fitted2) / samples) * Math.sign(gain);
  const residual2 = Math.max(1e-18, best.plan.obsNorm2 - fitted2);
  const snr = Math.sqrt(Math.max(0, fitted2) / residual2);

  const agreement = segmentAgreement(times, obs, changes, end, best.plan.lag, seq, vecs, cfg.settleS);

  const okScore = corr >= cfg.minScore;
  const okAgree = agreement >= cfg.minAgreement;
  const okNull = corr > nullQuantile;
  const okAmp = amplitude >= cfg.minAmplitude;
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const detail =
    `correlation ${corr.toFixed(3)} at lag ${best.plan.lag.toFixed(2)} s (min ${cfg.minScore}; ` +
    `null q${Math.round(cfg.nullQuantile * 100)} ${nullQuantile.toFixed(3)} over ${nulls.length} sequences, ` +
    `above ${pct(nullRank)}); amplitude ${pct(amplitude)} (min ${pct(cfg.minAmplitude)}); ` +
    `segments agreeing ${pct(agreement)} (min ${pct(cfg.minAgreement)}); ` +
    `${framesUsed} frames, ${useBg ? 'background subtracted' : 'no usable background'}`;
  return {
    passed: okScore && okNull && okAmp && okAgree,
    score: corr,
    threshold: cfg.minScore,
    lagS: best.plan.lag,
    nullQuantile,
    nullRank,
    amplitude,
    minAmplitude: cfg.minAmplitude,
    snr,
    agreement,
    minAgreement: cfg.minAgreement,
    framesUsed,
    coverage,
    background: useBg,
    detail,
  };
}
