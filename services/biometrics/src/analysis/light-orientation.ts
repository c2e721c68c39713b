/**
 * Light by its physics (light.ts): the screen is a lamp beside the camera, so a skin region that
 * faces it receives more of its light than one turned away (Lambert: in proportion to the cosine
 * between the surface normal and the direction to the screen), and as the head turns the regions
 * trade places. A face tinted uniformly in the revealed colour — what a puppet or a replay painting
 * the colour onto the face does — changes every region alike. This measures, over the frames of the
 * light timeline, how much of the skin's response follows each region's orientation:
 *
 *   d_jk ≈ (α + β·c_jk)·e_j + m_k
 *
 * with d_jk the chromaticity change of skin disc k in frame j, e_j the issued sequence's expected
 * chromaticity at the fitted lag, c_jk the disc's facing (cosine of its normal to the camera axis,
 * from the frame's face mesh) and m_k a constant per disc. `share` = β·c̄ / (α + β·c̄) is the part of
 * the mean response that follows the orientation: 1 for light as physics gives it, 0 for a uniform
 * tint. Pure: no I/O, no models.
 */
import type { Pt } from './geometry.js';
import { SKIN_POINTS, type Vec3 } from './light-measure.js';

/** Human's face mesh gives x, y in frame pixels and z in the mesh model's 192-px input units. */
export const MESH_Z_UNITS = 192;

/** 38 discs on the sides of the nose (19 a side, the mesh's mirrored indices). */
export const NOSE_SIDE_POINTS: readonly number[] = [
  129, 358, 49, 279, 48, 278, 64, 294, 98, 327, 102, 331, 209, 429, 217, 437, 114, 343, 188, 412, 196, 419, 3, 248, 236, 456, 174,
  399, 126, 355, 142, 371, 100, 329, 47, 277, 120, 349,
];

/**
 * The skin discs whose responses are compared: the light check's (SKIN_POINTS: forehead, cheeks)
 * and more of the face's skin facing other ways — the nose's bridge and back, the cheekbones, the
 * sides of the cheeks and the jaw, the chin, the forehead's sides — clear of the eyes, brows,
 * nostrils and mouth on a frontal face. Nine discs facing much alike left the fit at the mercy of
 * each disc's own quirks; more, and more varied, orientations make it steadier.
 */
export const ORIENTATION_POINTS: readonly number[] = [
  ...SKIN_POINTS,
  8,
  197,
  195,
  117,
  346,
  123,
  352,
  147,
  376,
  207,
  427,
  138,
  367,
  199,
  32,
  262,
  104,
  333,
  69,
  299,
  // the sides of the nose, left and right (interior skin turned from the camera): a mild screen
  // recapture of a tint changes each disc by its own amount, and on one face that pattern rose with
  // the facing of the discs above; these discs face sideways without sitting at the face's outline,
  // and with them every development-split attack fell below every genuine capture (docs/biometrics-evaluation.md)
  ...NOSE_SIDE_POINTS,
];

/**
 * Facing of each skin disc: the plane z = a·x + b·y + c fitted by least squares to the mesh points
 * within `radius` frame pixels (in x, y) of the disc's centre, z scaled to pixels by `zScale` (the
 * mesh's z grows away from the camera); its normal towards the camera is (a, b, −1), and the facing
 * is the cosine between it and the direction to the screen, (0, `screenBelow`, −1) normalised: the
 * screen's middle sits below the camera of a phone or a laptop (y grows downwards). With
 * `screenBelow` 0 it is 1/√(1 + a² + b²). Null for a disc with fewer than 6 points around it or a
 * degenerate fit.
 */
export function discFacing(
  mesh: readonly Pt[],
  zScale: number,
  radius: number,
  screenBelow = 0,
  triangles?: readonly number[],
  points: readonly number[] = SKIN_POINTS,
): (number | null)[] {
  const ln = Math.hypot(screenBelow, 1);
  if (triangles && triangles.length >= 3) return vertexFacing(mesh, zScale, screenBelow, triangles, points);
  const r2 = radius * radius;
  const n = Math.min(mesh.length, 468);
  return points.map((idx) => {
    const p = mesh[idx];
    if (!p) return null;
    let cnt = 0,
      mx = 0,
      my = 0,
      mz = 0;
    const near: number[] = [];
    for (let i = 0; i < n; i++) {
      const q = mesh[i];
      const dx = q[0] - p[0],
        dy = q[1] - p[1];
      if (dx * dx + dy * dy > r2) continue;
      near.push(i);
      mx += q[0];
      my += q[1];
      mz += (q[2] ?? 0) * zScale;
      cnt++;
    }
    if (cnt < 6) return null;
    mx /= cnt;
    my /= cnt;
    mz /= cnt;
    let sxx = 0,
      sxy = 0,
      syy = 0,
      sxz = 0,
      syz = 0;
    for (const i of near) {
      const q = mesh[i];
      const x = q[0] - mx,
        y = q[1] - my,
        z = (q[2] ?? 0) * zScale - mz;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
      sxz += x * z;
      syz += y * z;
    }
    const det = sxx * syy - sxy * sxy;
    if (!(det > 1e-9)) return null;
    const a = (sxz * syy - syz * sxy) / det;
    const b = (syz * sxx - sxz * sxy) / det;
    return Math.max(0, (b * screenBelow + 1) / (ln * Math.sqrt(1 + a * a + b * b)));
  });
}

/** The triangles (indices into `triangles`, a multiple of 3) around each point, per triangulation and points. */
const ringCache = new WeakMap<readonly number[], WeakMap<readonly number[], number[][]>>();
function rings(triangles: readonly number[], points: readonly number[]): number[][] {
  let byPoints = ringCache.get(triangles);
  if (!byPoints) ringCache.set(triangles, (byPoints = new WeakMap()));
  let r = byPoints.get(points);
  if (!r) {
    r = points.map((idx) => {
      const out: number[] = [];
      for (let t = 0; t + 2 < triangles.length; t += 3)
        if (triangles[t] === idx || triangles[t + 1] === idx || triangles[t + 2] === idx) out.push(t);
      return out;
    });
    byPoints.set(points, r);
  }
  return r;
}

/**
 * Facing of each skin disc from the mesh's own surface: the vertex normal at the disc's centre (the
 * area-weighted sum of the normals of the triangles around it, in Human's triangulation), oriented
 * towards the camera (−z: the mesh's winding is not relied on), against the direction to the screen.
 */
function vertexFacing(
  mesh: readonly Pt[],
  zScale: number,
  screenBelow: number,
  triangles: readonly number[],
  points: readonly number[],
): (number | null)[] {
  const ln = Math.hypot(screenBelow, 1);
  const z = (i: number) => (mesh[i]?.[2] ?? 0) * zScale;
  const normal = (t: number): [number, number, number] | null => {
    const a = mesh[triangles[t]],
      b = mesh[triangles[t + 1]],
      c = mesh[triangles[t + 2]];
    if (!a || !b || !c) return null;
    const ux = b[0] - a[0],
      uy = b[1] - a[1],
      uz = z(triangles[t + 1]) - z(triangles[t]);
    const vx = c[0] - a[0],
      vy = c[1] - a[1],
      vz = z(triangles[t + 2]) - z(triangles[t]);
    return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
  };
  // the triangulation's winding is the same for every triangle: the whole face's projected area says
  // which sign points towards the camera (−z)
  let area = 0;
  for (let t = 0; t + 2 < triangles.length; t += 3) area += normal(t)?.[2] ?? 0;
  const sign = area > 0 ? -1 : 1;
  return rings(triangles, points).map((ring) => {
    let nx = 0,
      ny = 0,
      nz = 0;
    for (const t of ring) {
      const n = normal(t);
      if (!n) return null;
      nx += sign * n[0];
      ny += sign * n[1];
      nz += sign * n[2];
    }
    const n = Math.hypot(nx, ny, nz);
    if (!(n > 0)) return null;
    // towards the camera is −z; the screen lies along (0, screenBelow, −1)
    return Math.max(0, (ny * screenBelow - nz) / (n * ln));
  });
}

export interface OrientationFit {
  /** part of the mean response that follows the regions' orientation (1 physics, 0 uniform tint) */
  share: number;
  /** α and β of the model (log-chromaticity per unit of expected signal) */
  uniformGain: number;
  facingGain: number;
  /** mean facing c̄ over the discs, and its spread (standard deviation) */
  meanFacing: number;
  facingSpread: number;
  /** disc-frames used */
  samples: number;
  /** discs fitted */
  discs: number;
}

const chroma = (d: Vec3): Vec3 => {
  const m = (d[0] + d[1] + d[2]) / 3;
  return [d[0] - m, d[1] - m, d[2] - m];
};

const medianOf = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Fit the model of the module comment. `discs[j][k]` is disc k's change in frame j (brightness is
 * removed here), `facing[j][k]` its facing, `expected[j]` the expected chromaticity (null: the
 * frame is not used). Each disc's gain g_k is the least-squares gain of its response on the
 * expected signal (both centred: the constant m_k), with its mean facing c_k; the line g = α + β·c
 * is then fitted across the discs by Theil–Sen (the median of the pairwise slopes, pairs whose
 * facings differ by at least `minFacingGap`), because a few discs go astray on any face — one that
 * takes in hair, a lip or the background past the cheek responds less whatever the light — and a
 * least-squares line follows them. Discs whose mean facing is below `minFacing` — skin seen at a
 * grazing angle — are left out: there the mesh's depth, hence the facing, is least trustworthy and a
 * small disc seen nearly edge-on blurs into its neighbours, so the response matches no facing (on
 * rendered genuine captures such discs responded at half to four fifths of the frontal ones, far
 * more than Lambert gives, and flattened the line). Null when fewer than `minSamples` disc-frames
 * or 5 discs are usable, or the facings do not vary enough to tell the two terms apart.
 */
export function orientationFit(
  discs: readonly (readonly (Vec3 | null)[] | null)[],
  facing: readonly (readonly (number | null)[] | null)[],
  expected: readonly (Vec3 | null)[],
  minSamples = 30,
  minFacingGap = 0.05,
  minFacing = 0,
): OrientationFit | null {
  const K = Math.max(0, ...discs.map((d) => d?.length ?? 0));
  const fits: { g: number; c: number }[] = [];
  let samples = 0;
  for (let k = 0; k < K; k++) {
    const rows: { d: Vec3; c: number; e: Vec3 }[] = [];
    for (let j = 0; j < expected.length; j++) {
      const e = expected[j],
        d = discs[j]?.[k],
        c = facing[j]?.[k];
      if (e && d && c !== null && c !== undefined) rows.push({ d: chroma(d), c, e });
    }
    if (rows.length < 3) continue;
    const md = [0, 0, 0],
      me = [0, 0, 0];
    for (const r of rows)
      for (let ch = 0; ch < 3; ch++) {
        md[ch] += r.d[ch] / rows.length;
        me[ch] += r.e[ch] / rows.length;
      }
    let sxy = 0,
      sxx = 0,
      cw = 0;
    for (const r of rows) {
      let w = 0;
      for (let ch = 0; ch < 3; ch++) {
        const x = r.e[ch] - me[ch];
        sxy += x * (r.d[ch] - md[ch]);
        sxx += x * x;
        w += x * x;
      }
      cw += w * r.c;
    }
    if (!(sxx > 0) || cw / sxx < minFacing) continue;
    fits.push({ g: sxy / sxx, c: cw / sxx });
    samples += rows.length;
  }
  if (samples < minSamples || fits.length < 5) return null;
  const cs = fits.map((f) => f.c);
  const meanFacing = cs.reduce((a, b) => a + b, 0) / cs.length;
  const facingSpread = Math.sqrt(cs.reduce((a, c) => a + (c - meanFacing) ** 2, 0) / cs.length);
  const slopes: number[] = [];
  for (let a = 0; a < fits.length; a++)
    for (let b = a + 1; b < fits.length; b++) {
      const dc = fits[b].c - fits[a].c;
      if (Math.abs(dc) >= minFacingGap) slopes.push((fits[b].g - fits[a].g) / dc);
    }
  if (slopes.length < fits.length) return null;
  const beta = medianOf(slopes);
  const alpha = medianOf(fits.map((f) => f.g - beta * f.c));
  const total = alpha + beta * meanFacing;
  const share = total > 0 ? (beta * meanFacing) / total : 0;
  return { share, uniformGain: alpha, facingGain: beta, meanFacing, facingSpread, samples, discs: fits.length };
}

/**
 * The issued sequence's expected chromaticity at media time t, with the fitted lag applied by the
 * caller: the segments' palette vectors weighted by the camera's first-order ramp (as light-fit's
 * planLag weighs them); null outside the timeline.
 */
export function expectedAt(
  t: number,
  changes: readonly number[],
  end: number,
  seq: Int32Array,
  vecs: readonly number[][],
  rampS: number,
): Vec3 | null {
  if (t < changes[0] || t > end) return null;
  const tau = Math.max(1e-3, rampS);
  const ramp = (x: number) => (x <= 0 ? 0 : 1 - Math.exp(-x / tau));
  const out: Vec3 = [0, 0, 0];
  let prev = 1;
  for (let k = 0; k < changes.length; k++) {
    const next = k + 1 < changes.length ? ramp(t - changes[k + 1]) : 0;
    const w = prev - next;
    if (w > 1e-6) for (let c = 0; c < 3; c++) out[c] += w * vecs[seq[k]][c];
    prev = next;
  }
  return out;
}

export interface OrientationInput {
  times: readonly number[];
  /** per frame: the face mesh and, when known, Human's face box (its width scales the mesh's z) */
  faces: readonly ({ mesh: readonly Pt[]; box?: readonly number[] } | null)[];
  /** per frame and disc of ORIENTATION_POINTS: the chromaticity change (discChanges), null where not usable */
  discs: readonly (readonly (Vec3 | null)[] | null)[];
  /** per frame: what is subtracted from every disc (the background's own change), null: frame unused */
  shift: readonly (Vec3 | null)[];
  changes: readonly number[];
  end: number;
  lag: number;
  seq: Int32Array;
  vecs: readonly number[][];
  rampS: number;
  /** radius of the facing fit, inter-ocular units */
  facingRadius: number;
  /** the direction to the screen: (0, screenBelow, −1) */
  screenBelow: number;
  /** each disc's facing is the median over this many frames either side (the mesh's depth is noisy
   *  from frame to frame, and noise in the facing biases the fit towards a uniform response) */
  facingSmoothFrames: number;
  minSamples: number;
  /** per disc: its typical brightness (mean of R, G, B; null: never seen) */
  brightness?: readonly (number | null)[];
  /** discs darker than this fraction of the median disc are left out */
  minBrightness?: number;
  /** the face mesh's triangulation (Human's): the facing from vertex normals; else from plane fits */
  triangles?: readonly number[];
  /** discs whose mean facing is below this are left out (seen at a grazing angle: orientationFit) */
  minFacing?: number;
}

/** The orientation fit over the light timeline at the fitted lag (see the module comment). */
export function measureOrientation(o: OrientationInput, interOcular: (mesh: readonly Pt[]) => number): OrientationFit | null {
  const discs: ((Vec3 | null)[] | null)[] = [];
  const facing: ((number | null)[] | null)[] = [];
  const expected: (Vec3 | null)[] = [];
  o.times.forEach((t, j) => {
    const f = o.faces[j],
      ds = o.discs[j],
      s = o.shift[j];
    const e = f && ds && s ? expectedAt(t - o.lag, o.changes, o.end, o.seq, o.vecs, o.rampS) : null;
    if (!e || !f || !ds || !s) {
      discs.push(null);
      facing.push(null);
      expected.push(null);
      return;
    }
    const io = interOcular(f.mesh);
    const boxW = f.box?.[2];
    // without a box, the face oval's width stands for it (about the same on a frontal face)
    const width = boxW && boxW > 0 ? boxW : 2.3 * io;
    discs.push(ds.map((d) => (d ? ([d[0] - s[0], d[1] - s[1], d[2] - s[2]] as Vec3) : null)));
    facing.push(
      io > 0
        ? discFacing(f.mesh, width / MESH_Z_UNITS, o.facingRadius * io, o.screenBelow, o.triangles, ORIENTATION_POINTS)
        : null,
    );
    expected.push(e);
  });
  const known = (o.brightness ?? []).filter((b): b is number => b !== null);
  const floor = known.length && o.minBrightness ? o.minBrightness * medianOf(known) : -Infinity;
  const keep = (k: number) => (o.brightness?.[k] ?? Infinity) >= floor;
  const kept = discs.map((ds) => (ds ? ds.map((d, k) => (keep(k) ? d : null)) : null));
  return orientationFit(kept, smoothFacing(facing, o.facingSmoothFrames), expected, o.minSamples, undefined, o.minFacing);
}

/** Each disc's facing replaced by its median over the frames within `half` either side (nulls skipped). */
export function smoothFacing(facing: readonly ((number | null)[] | null)[], half: number): ((number | null)[] | null)[] {
  if (half <= 0) return facing.map((f) => (f ? [...f] : null));
  return facing.map((row, j) => {
    if (!row) return null;
    return row.map((c, k) => {
      if (c === null) return null;
      const xs: number[] = [];
      for (let i = Math.max(0, j - half); i <= Math.min(facing.length - 1, j + half); i++) {
        const v = facing[i]?.[k];
        if (v !== null && v !== undefined) xs.push(v);
      }
      xs.sort((a, b) => a - b);
      return xs.length % 2 ? xs[xs.length >> 1] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
    });
  });
}

/** Each disc's median brightness (mean of R, G, B) over the frames where it was measured. */
export function discBrightness(patches: readonly (({ rgb: readonly number[] } | null)[] | null)[]): (number | null)[] {
  const K = Math.max(0, ...patches.map((p) => p?.length ?? 0));
  return Array.from({ length: K }, (_, k) => {
    const xs = patches.flatMap((p) => (p?.[k] ? [(p[k].rgb[0] + p[k].rgb[1] + p[k].rgb[2]) / 3] : []));
    return xs.length ? medianOf(xs) : null;
  });
}
