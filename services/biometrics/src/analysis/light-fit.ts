/**
 * Fitting an issued colour sequence to the observed skin colour (light.ts): per-lag plans with a
 * detrending basis, the least-squares fit and its correlation, the best lag, and the share of
 * segments whose colour agrees.
 */
import type { LightConfig } from './light.js';
import type { Vec3 } from './light-measure.js';

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
export interface LagPlan {
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

export function planLag(
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
export function bestLag(plans: readonly LagPlan[], seq: Int32Array, vecs: readonly number[][], gram: Float64Array) {
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
export function segmentAgreement(
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
