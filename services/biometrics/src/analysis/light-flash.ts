/**
 * Short flashes (issue 30): one segment of the timeline shows four colours of 250 ms each, drawn by
 * the server and revealed only with that segment. A face lit by the screen reflects each of them in
 * the frames right after it was shown (display and camera latency, a first-order ramp); a puppet
 * that follows only the once-a-second colours, or follows everything but late, does not. This
 * checks, on the skin's colour change measured for the light check (light.ts), that:
 *
 * - the response around the flash segment correlates with the issued flashes (minCorr) at its best
 *   lag, searched over a wide range (searchMinS…searchMaxS);
 * - the issued flashes explain it better than (nearly) every other flash sequence the server could
 *   have drawn (the same neighbours, no colour repeated): at most maxRank of them score as high, so
 *   a response that holds the segment's first colour, or answers other colours, fails;
 * - that best lag lies within lagMinS…lagMaxS of the times the page showed them: a response later
 *   than display and camera latency allow (a puppet rendering after the reveal), or earlier than
 *   the flash was shown, fails.
 *
 * Sampling: the analysis reads 8 frames a second (analysisConfig.sampling.fps), which puts two
 * frames on each 250 ms step: too few for a genuine capture to clear the rank test every time (one
 * scored 12 of 520 against a cap of 10.4). So the flash window is decoded again at the capture's own
 * rate (analyze.ts flashDecode: the page records what the camera gives, usually 30 fps; at most
 * `flash.denseMaxFps`), its frames measured against the sampled frames' baselines, with the face
 * interpolated from the sampled frames around them (light.ts facesAt). A capture at no more than
 * 8 fps (the ceremony's floor) keeps its sampled frames. The lag is resolved between frames by the
 * ramp model. Pure: no I/O, no models.
 */
import type { Vec3 } from './light-measure.js';

export interface FlashConfig {
  /** the lag search (s): wide, so a late response is found late rather than not at all */
  searchMinS: number;
  searchMaxS: number;
  lagStepS: number;
  /** where the best lag must lie (s, after the shown times) */
  lagMinS: number;
  lagMaxS: number;
  /** first-order time constant of the camera's response to a colour change (s) */
  rampS: number;
  /** frames from this long before the flash segment to this long after it are read (s) */
  preS: number;
  postS: number;
  /** correlation of the response with the issued flashes at the best lag */
  minCorr: number;
  /** share of the other possible flash sequences that may score as high as the issued one */
  maxRank: number;
  /** usable frames inside the flash steps, per step */
  minFramesPerStep: number;
}

export const FLASH_REASONS = ['not_measurable', 'no_response', 'not_the_flashes', 'late', 'early'] as const;
export type FlashReason = (typeof FLASH_REASONS)[number];

export interface FlashInput {
  /** media time of each frame (s) and the skin's change per frame (light.ts's observed signal) */
  times: readonly number[];
  obs: readonly (Vec3 | null)[];
  /** the whole light sequence as palette indices, and when each was shown (s) */
  seq: Int32Array;
  changes: readonly number[];
  end: number;
  /** seq[first … first + count) are the flash steps */
  flash: { first: number; count: number };
  /** the palette's expected log-chromaticity vectors */
  vecs: readonly (readonly number[])[];
}

export interface FlashResult {
  passed: boolean;
  reason: FlashReason | null;
  corr: number;
  lagS: number;
  /** share of the other possible flash sequences scoring at least as high */
  rank: number;
  alternatives: number;
  frames: number;
  detail: string;
}

/**
 * Per lag, the expected signal of any flash sequence in closed form: e = e_fix + Σ_q w_q·v(s_q), with
 * e_fix the (centred) response to the steps that are not flashes and w_q the (centred) weight of
 * flash step q on each frame, so that for observations o (centred)
 *   ⟨o, e⟩ = D + Σ_q Σ_c A[q][c]·v(s_q)_c,  ‖e‖² = Σ_c (F_c + 2 Σ_q B[q][c]·v(s_q)_c + Σ_q,q' G[q][q']·v(s_q)_c·v(s_q')_c)
 * and each of the few hundred sequences weighed costs O(steps²) per lag, not O(frames · steps).
 */
type LagSummary = { lag: number; d: number; a: Float64Array; f: Float64Array; b: Float64Array; g: Float64Array };
type Plan = { n: number; o: Float64Array; lags: LagSummary[] };

/** Weights (r_k − r_{k+1}) of steps k0 … k1−1 on one frame at media time t − lag (ramped steps). */
function stepWeights(t: number, changes: readonly number[], k0: number, k1: number, tau: number, out: Float64Array) {
  const ramp = (x: number) => (x <= 0 ? 0 : 1 - Math.exp(-x / tau));
  let prev = 1; // r_{k0} ≡ 1: held before; r_{k1} ≡ 0: not reached by any frame read
  for (let k = k0; k < k1; k++) {
    const next = k + 1 < k1 ? ramp(t - changes[k + 1]!) : 0;
    out[k - k0] = prev - next;
    prev = next;
  }
}

const centre = (v: Float64Array) => {
  let m = 0;
  for (const x of v) m += x / v.length;
  for (let j = 0; j < v.length; j++) v[j]! -= m;
};

function plan(input: FlashInput, cfg: FlashConfig): Plan {
  const { times, obs, changes, flash, seq, vecs } = input;
  const K = changes.length;
  const Q = flash.count;
  const from = changes[flash.first]! - cfg.preS;
  const to = (changes[flash.first + Q] ?? input.end) + cfg.postS;
  const idx: number[] = [];
  for (let i = 0; i < times.length; i++) if (obs[i] && times[i]! >= from && times[i]! <= to) idx.push(i);
  const n = idx.length;
  // the steps that can reach the frames read at any lag searched
  let k0 = flash.first;
  while (k0 > 0 && changes[k0]! > from - cfg.searchMaxS) k0--;
  let k1 = K;
  while (k1 > flash.first + Q && changes[k1 - 1]! > to - cfg.searchMinS) k1--;
  const o = new Float64Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const v = o.subarray(c * n, (c + 1) * n);
    idx.forEach((i, j) => (v[j] = obs[i]![c]!));
    centre(v);
  }
  const tau = Math.max(1e-3, cfg.rampS);
  const m = k1 - k0;
  const wk = new Float64Array(m);
  const lags: LagSummary[] = [];
  const steps = Math.max(0, Math.round((cfg.searchMaxS - cfg.searchMinS) / cfg.lagStepS));
  for (let s = 0; s <= steps; s++) {
    const lag = Math.round((cfg.searchMinS + s * cfg.lagStepS) * 1000) / 1000;
    const fix = new Float64Array(3 * n);
    const w = Array.from({ length: Q }, () => new Float64Array(n));
    idx.forEach((i, j) => {
      stepWeights(times[i]! - lag, changes, k0, k1, tau, wk);
      for (let q = 0; q < m; q++) {
        const k = k0 + q;
        if (k >= flash.first && k < flash.first + Q) w[k - flash.first]![j] = wk[q]!;
        else for (let c = 0; c < 3; c++) fix[c * n + j]! += wk[q]! * vecs[seq[k]!]![c]!;
      }
    });
    for (let c = 0; c < 3; c++) centre(fix.subarray(c * n, (c + 1) * n));
    for (const v of w) centre(v);
    const dot = (x: Float64Array, y: Float64Array) => {
      let r = 0;
      for (let j = 0; j < x.length; j++) r += x[j]! * y[j]!;
      return r;
    };
    const ch = (v: Float64Array, c: number) => v.subarray(c * n, (c + 1) * n);
    const a = new Float64Array(Q * 3);
    const b = new Float64Array(Q * 3);
    const f = new Float64Array(3);
    const g = new Float64Array(Q * Q);
    let d = 0;
    for (let c = 0; c < 3; c++) {
      d += dot(ch(o, c), ch(fix, c));
      f[c] = dot(ch(fix, c), ch(fix, c));
      for (let q = 0; q < Q; q++) {
        a[q * 3 + c] = dot(w[q]!, ch(o, c));
        b[q * 3 + c] = dot(w[q]!, ch(fix, c));
      }
    }
    for (let q = 0; q < Q; q++) for (let q2 = 0; q2 < Q; q2++) g[q * Q + q2] = dot(w[q]!, w[q2]!);
    lags.push({ lag, d, a, f, b, g });
  }
  return { n, o, lags };
}

/** Best correlation over the lags of observed with the expected signal of the flash colours `fl`, and its lag. */
function score(p: Plan, fl: Int32Array, vecs: FlashInput['vecs']): { corr: number; lag: number } {
  let oo = 0;
  for (const x of p.o) oo += x * x;
  const Q = fl.length;
  let best = { corr: -Infinity, lag: 0 };
  for (const L of p.lags) {
    let dot = L.d;
    let ee = 0;
    for (let c = 0; c < 3; c++) {
      let e2 = L.f[c]!;
      for (let q = 0; q < Q; q++) {
        const vq = vecs[fl[q]!]![c]!;
        dot += L.a[q * 3 + c]! * vq;
        e2 += 2 * L.b[q * 3 + c]! * vq;
        for (let q2 = 0; q2 < Q; q2++) e2 += L.g[q * Q + q2]! * vq * vecs[fl[q2]!]![c]!;
      }
      ee += e2;
    }
    const corr = ee > 1e-12 && oo > 1e-18 ? dot / Math.sqrt(ee * oo) : 0;
    if (corr > best.corr) best = { corr, lag: L.lag };
  }
  return best;
}

/** Every flash sequence the server could have drawn with these neighbours (no colour repeated in a row). */
function alternatives(seq: Int32Array, flash: FlashInput['flash'], P: number): Int32Array[] {
  const out: Int32Array[] = [];
  const before = flash.first > 0 ? seq[flash.first - 1]! : -1;
  const after = flash.first + flash.count < seq.length ? seq[flash.first + flash.count]! : -1;
  const cur = new Int32Array(flash.count);
  const walk = (q: number) => {
    if (q === flash.count) {
      if (cur[q - 1] !== after) out.push(Int32Array.from(cur));
      return;
    }
    for (let p = 0; p < P; p++) {
      if ((q > 0 ? cur[q - 1] : before) === p) continue;
      cur[q] = p;
      walk(q + 1);
    }
  };
  walk(0);
  return out;
}

const same = (a: Int32Array, b: Int32Array) => a.every((x, i) => x === b[i]);

export function flashResponse(input: FlashInput, cfg: FlashConfig): FlashResult {
  const { flash, seq, vecs } = input;
  const flashEnd = input.changes[flash.first + flash.count] ?? input.end;
  const inSteps = input.times.filter((t, i) => input.obs[i] && t >= input.changes[flash.first]! && t < flashEnd).length;
  const base = { corr: 0, lagS: 0, rank: 1, alternatives: 0, frames: inSteps };
  if (flash.count < 2 || inSteps < cfg.minFramesPerStep * flash.count)
    return {
      ...base,
      passed: false,
      reason: 'not_measurable',
      detail: `flashes: ${inSteps} usable frames for ${flash.count} flashes (min ${cfg.minFramesPerStep} each)`,
    };
  const p = plan(input, cfg);
  const mine = seq.slice(flash.first, flash.first + flash.count);
  const issued = score(p, mine, vecs);
  const others = alternatives(seq, flash, vecs.length).filter((a) => !same(a, mine));
  const higher = others.filter((a) => score(p, a, vecs).corr >= issued.corr).length;
  const rank = others.length ? higher / others.length : 0;
  const reason: FlashReason | null =
    issued.corr < cfg.minCorr
      ? 'no_response'
      : rank > cfg.maxRank
        ? 'not_the_flashes'
        : issued.lag > cfg.lagMaxS
          ? 'late'
          : issued.lag < cfg.lagMinS
            ? 'early'
            : null;
  const ms = (s: number) => `${Math.round(s * 1000)} ms`;
  const detail =
    `flashes: correlation ${issued.corr.toFixed(3)} (min ${cfg.minCorr}) at lag ${ms(issued.lag)} ` +
    `(allowed ${ms(cfg.lagMinS)}…${ms(cfg.lagMaxS)}); ${higher} of ${others.length} other flash sequences score as high ` +
    `(max ${(cfg.maxRank * 100).toFixed(0)} %); ${inSteps} frames in ${flash.count} flashes` +
    (reason ? `: ${reason.replace(/_/g, ' ')}` : '');
  return {
    passed: reason === null,
    reason,
    corr: issued.corr,
    lagS: issued.lag,
    rank,
    alternatives: others.length,
    frames: inSteps,
    detail,
  };
}
