/**
 * Synthetic ceremony renderer: warps a face photo with its Human face mesh (per-triangle affine
 * texture mapping) to turn the head, look up, blink (closed-eyelid texture painted over the eye
 * opening) and smile (mouth-corner displacement field), then adds sensor noise and jitter.
 */
import { IDX } from '../../src/analysis/geometry.js';
import { hexToLinear } from '../../src/analysis/light.js';
import type { RgbImage } from '../../src/analysis/media.js';

export const W = 640;
export const H = 480;

/** Per-frame pose/expression of one animated face. Angles in degrees; blink/smile in 0..1. */
export interface FaceState {
  yaw: number; // + = subject turns to their own LEFT (nose moves to image right)
  pitch: number; // + = subject looks UP
  blink: number;
  smile: number;
}

export const NEUTRAL: FaceState = { yaw: 0, pitch: 0, blink: 0, smile: 0 };

/** A face in a neutral composite frame: mesh in frame pixels (x, y, z scaled to pixels). */
export interface FaceRig {
  pts: Float32Array; // (x,y,z) * 468 mesh points, frame pixels
  extra: Float32Array; // (x,y,z) * 72 ring points (2 rings of 36 around the face oval)
  center: [number, number, number];
}

// ---------------------------------------------------------------------------------- images

export function blank(w = W, h = H): RgbImage {
  return { width: w, height: h, data: new Uint8Array(w * h * 3) };
}

export function sampleBilinear(img: RgbImage, x: number, y: number, out: Float32Array): void {
  const w = img.width,
    h = img.height,
    d = img.data;
  if (x < 0) x = 0;
  else if (x > w - 1.001) x = w - 1.001;
  if (y < 0) y = 0;
  else if (y > h - 1.001) y = h - 1.001;
  const x0 = x | 0,
    y0 = y | 0;
  const fx = x - x0,
    fy = y - y0;
  const i00 = (y0 * w + x0) * 3,
    i01 = i00 + 3,
    i10 = i00 + w * 3,
    i11 = i10 + 3;
  for (let c = 0; c < 3; c++) {
    out[c] = (d[i00 + c] * (1 - fx) + d[i01 + c] * fx) * (1 - fy) + (d[i10 + c] * (1 - fx) + d[i11 + c] * fx) * fy;
  }
}

/** Separable box blur, `passes` times (≈ Gaussian). */
export function boxBlur(img: RgbImage, radius: number, passes = 2): RgbImage {
  const { width: w, height: h } = img;
  let a = Float32Array.from(img.data);
  let b = new Float32Array(a.length);
  for (let p = 0; p < passes; p++) {
    for (const horizontal of [true, false]) {
      const len = horizontal ? w : h,
        lines = horizontal ? h : w;
      for (let l = 0; l < lines; l++) {
        for (let c = 0; c < 3; c++) {
          const idx = (k: number) => (horizontal ? (l * w + k) * 3 + c : (k * w + l) * 3 + c);
          let acc = 0;
          for (let k = -radius; k <= radius; k++) acc += a[idx(Math.min(len - 1, Math.max(0, k)))];
          for (let k = 0; k < len; k++) {
            b[idx(k)] = acc / (2 * radius + 1);
            acc += a[idx(Math.min(len - 1, k + radius + 1))] - a[idx(Math.max(0, k - radius))];
          }
        }
      }
      [a, b] = [b, a];
    }
  }
  return { width: w, height: h, data: Uint8Array.from(a, (v) => Math.max(0, Math.min(255, Math.round(v)))) };
}

/** Where a person's photo is placed in the frame: face centre (source px) → frame point, scale. */
export interface Placement {
  src: RgbImage;
  srcCenter: [number, number];
  scale: number; // frame px per source px
  frameCenter: [number, number];
  /** head ellipse radii in frame px (sharp region) */
  radii: [number, number];
}

/** Map the placement's source region onto a full frame (no mask). */
export function placeFull(p: Placement): RgbImage {
  const out = blank();
  const px = new Float32Array(3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      sampleBilinear(
        p.src,
        p.srcCenter[0] + (x - p.frameCenter[0]) / p.scale,
        p.srcCenter[1] + (y - p.frameCenter[1]) / p.scale,
        px,
      );
      const i = (y * W + x) * 3;
      out.data[i] = px[0];
      out.data[i + 1] = px[1];
      out.data[i + 2] = px[2];
    }
  }
  return out;
}

/** Composite the sharp head region of `p` (feathered ellipse) onto `dst`. */
export function compositeHead(dst: RgbImage, p: Placement, feather = 18): void {
  const px = new Float32Array(3);
  const [cx, cy] = p.frameCenter;
  const [rx, ry] = p.radii;
  for (let y = Math.max(0, Math.floor(cy - ry - feather)); y < Math.min(H, Math.ceil(cy + ry + feather)); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx - feather)); x < Math.min(W, Math.ceil(cx + rx + feather)); x++) {
      const e = Math.hypot((x - cx) / rx, (y - cy) / ry); // 1 on the ellipse
      const distPx = (e - 1) * Math.min(rx, ry);
      const alpha = distPx <= -feather / 2 ? 1 : distPx >= feather / 2 ? 0 : 0.5 - distPx / feather;
      if (alpha <= 0) continue;
      sampleBilinear(p.src, p.srcCenter[0] + (x - cx) / p.scale, p.srcCenter[1] + (y - cy) / p.scale, px);
      const i = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) dst.data[i + c] = Math.round(dst.data[i + c] * (1 - alpha) + px[c] * alpha);
    }
  }
}

// ---------------------------------------------------------------------------------- rig

/** Build a rig from a Human mesh detected in the neutral composite. `boxWidth` scales mesh z. */
export function makeRig(mesh: readonly (readonly number[])[], boxWidth: number): FaceRig {
  const zScale = boxWidth / 192; // mesh z is in the model's 192-px input units
  const pts = new Float32Array(468 * 3);
  for (let i = 0; i < 468; i++) {
    pts[i * 3] = mesh[i][0];
    pts[i * 3 + 1] = mesh[i][1];
    pts[i * 3 + 2] = (mesh[i][2] ?? 0) * zScale;
  }
  const oval = IDX.faceOval;
  let cx = 0,
    cy = 0,
    cz = 0;
  for (const i of oval) {
    cx += pts[i * 3];
    cy += pts[i * 3 + 1];
    cz += pts[i * 3 + 2];
  }
  cx /= oval.length;
  cy /= oval.length;
  cz /= oval.length;
  const extra = new Float32Array(oval.length * 2 * 3);
  oval.forEach((i, k) => {
    for (const [ring, f] of [
      [0, 1.3],
      [1, 1.75],
    ] as const) {
      const o = (ring * oval.length + k) * 3;
      extra[o] = cx + (pts[i * 3] - cx) * f;
      extra[o + 1] = cy + (pts[i * 3 + 1] - cy) * f;
      extra[o + 2] = pts[i * 3 + 2];
    }
  });
  return { pts, extra, center: [cx, cy, cz] };
}

function rotatePoint(
  x: number,
  y: number,
  z: number,
  c: readonly number[],
  yawDeg: number,
  pitchDeg: number,
): [number, number, number] {
  const t = (yawDeg * Math.PI) / 180,
    p = (pitchDeg * Math.PI) / 180;
  const dy = y - c[1];
  let dx = x - c[0],
    dz = z - c[2];
  // yaw: nose (dz < 0) moves to +x for t > 0
  const x1 = dx * Math.cos(t) - dz * Math.sin(t);
  const z1 = dx * Math.sin(t) + dz * Math.cos(t);
  dx = x1;
  dz = z1;
  // pitch: nose moves up (−y) for p > 0
  const y2 = dy * Math.cos(p) + dz * Math.sin(p);
  const z2 = -dy * Math.sin(p) + dz * Math.cos(p);
  return [c[0] + dx, c[1] + y2, c[2] + z2];
}

/** Target positions of all rig points (mesh then rings) for a state. */
export function posePoints(rig: FaceRig, s: FaceState): Float32Array {
  const n = 468 + rig.extra.length / 3;
  const out = new Float32Array(n * 3);
  const mouthW = Math.hypot(
    rig.pts[IDX.mouth.leftCorner * 3] - rig.pts[IDX.mouth.rightCorner * 3],
    rig.pts[IDX.mouth.leftCorner * 3 + 1] - rig.pts[IDX.mouth.rightCorner * 3 + 1],
  );
  const corners = [
    { i: IDX.mouth.rightCorner, sx: -1 },
    { i: IDX.mouth.leftCorner, sx: 1 },
  ];
  // A smile pulls each mouth corner out by 0.2 and up by 0.06 mouth widths (about 10 mm and 3 mm on
  // a 50 mm mouth), fading with distance. It lifted the corners by 0.12 before: on a face already
  // smiling in its photo (sample3#2) that bent the lips into a crescent, and the face mesh read
  // the whole face as pitched up by 6-7 degrees, a look-up outside its window (two genuine captures
  // of the evaluation failed so). At 0.06 the same smiles read 5.0-5.3 degrees of pitch at most and
  // are still seen (mouth width +12-20 %, the check asks 7 %).
  const SMILE_OUT = 0.2,
    SMILE_UP = 0.06;
  const sigma = 0.3 * mouthW;
  for (let i = 0; i < 468; i++) {
    let x = rig.pts[i * 3],
      y = rig.pts[i * 3 + 1];
    const z = rig.pts[i * 3 + 2];
    if (s.smile > 0) {
      for (const c of corners) {
        const d = Math.hypot(x - rig.pts[c.i * 3], y - rig.pts[c.i * 3 + 1]);
        const w = Math.exp(-(d * d) / (2 * sigma * sigma));
        x += c.sx * SMILE_OUT * mouthW * s.smile * w;
        y -= SMILE_UP * mouthW * s.smile * w;
      }
    }
    const r = rotatePoint(x, y, z, rig.center, s.yaw, s.pitch);
    out[i * 3] = r[0];
    out[i * 3 + 1] = r[1];
    out[i * 3 + 2] = r[2];
  }
  const ringN = rig.extra.length / 6;
  for (let k = 0; k < ringN * 2; k++) {
    const o = k * 3;
    const follow = k < ringN ? 0.65 : 0; // inner ring follows the head partly, outer ring is static
    const r = rotatePoint(rig.extra[o], rig.extra[o + 1], rig.extra[o + 2], rig.center, s.yaw * follow, s.pitch * follow);
    out[(468 + k) * 3] = r[0];
    out[(468 + k) * 3 + 1] = r[1];
    out[(468 + k) * 3 + 2] = r[2];
  }
  return out;
}

/** Source (neutral) positions of all rig points. */
export function restPoints(rig: FaceRig): Float32Array {
  const out = new Float32Array(rig.pts.length + rig.extra.length);
  out.set(rig.pts, 0);
  out.set(rig.extra, rig.pts.length);
  return out;
}

/** Triangles: the face mesh plus two bands between the oval and the rings. */
export function rigTriangles(faceTris: readonly number[]): Int32Array {
  const oval = IDX.faceOval;
  const n = oval.length;
  const band: number[] = [];
  for (let k = 0; k < n; k++) {
    const k1 = (k + 1) % n;
    const o0 = oval[k],
      o1 = oval[k1],
      r0 = 468 + k,
      r1 = 468 + k1,
      q0 = 468 + n + k,
      q1 = 468 + n + k1;
    band.push(o0, o1, r0, o1, r1, r0, r0, r1, q0, r1, q1, q0);
  }
  return Int32Array.from([...band, ...faceTris]);
}

// ---------------------------------------------------------------------------------- warp

function rasterTriangle(
  dst: RgbImage,
  src: RgbImage,
  t: Float32Array,
  s: Float32Array,
  a: number,
  b: number,
  c: number,
  px: Float32Array,
): void {
  const x0 = t[a * 3],
    y0 = t[a * 3 + 1],
    x1 = t[b * 3],
    y1 = t[b * 3 + 1],
    x2 = t[c * 3],
    y2 = t[c * 3 + 1];
  const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (Math.abs(det) < 1e-6) return;
  const u0 = s[a * 3],
    v0 = s[a * 3 + 1],
    u1 = s[b * 3],
    v1 = s[b * 3 + 1],
    u2 = s[c * 3],
    v2 = s[c * 3 + 1];
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2))),
    maxX = Math.min(dst.width - 1, Math.ceil(Math.max(x0, x1, x2)));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2))),
    maxY = Math.min(dst.height - 1, Math.ceil(Math.max(y0, y1, y2)));
  const eps = -0.02;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const l1 = ((x - x0) * (y2 - y0) - (x2 - x0) * (y - y0)) / det;
      const l2 = ((x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)) / det;
      const l0 = 1 - l1 - l2;
      if (l0 < eps || l1 < eps || l2 < eps) continue;
      sampleBilinear(src, l0 * u0 + l1 * u1 + l2 * u2, l0 * v0 + l1 * v1 + l2 * v2, px);
      const i = (y * dst.width + x) * 3;
      dst.data[i] = px[0];
      dst.data[i + 1] = px[1];
      dst.data[i + 2] = px[2];
    }
  }
}

/** Render one face of `rig` in state `s` over `dst` (which already holds the neutral frame). */
export function warpFace(dst: RgbImage, neutral: RgbImage, rig: FaceRig, tris: Int32Array, s: FaceState): void {
  const rest = restPoints(rig);
  const tgt = posePoints(rig, s);
  const px = new Float32Array(3);
  const nTri = tris.length / 3;
  const bandTris = IDX.faceOval.length * 4;
  const order: number[] = [];
  for (let k = bandTris; k < nTri; k++) order.push(k);
  const depth = (k: number) => tgt[tris[k * 3] * 3 + 2] + tgt[tris[k * 3 + 1] * 3 + 2] + tgt[tris[k * 3 + 2] * 3 + 2];
  order.sort((p, q) => depth(q) - depth(p)); // far first
  for (let k = 0; k < bandTris; k++) rasterTriangle(dst, neutral, tgt, rest, tris[k * 3], tris[k * 3 + 1], tris[k * 3 + 2], px);
  for (const k of order) {
    const a = tris[k * 3],
      b = tris[k * 3 + 1],
      c = tris[k * 3 + 2];
    // no back-face culling: painter's order (far first) lets the near surface cover folded triangles
    rasterTriangle(dst, neutral, tgt, rest, a, b, c, px);
  }
  if (s.blink > 0) for (const eye of [IDX.rightEye, IDX.leftEye]) paintClosedLid(dst, tgt, eye, s.blink);
}

/**
 * The skin colour under an eye: the per-channel median of the pixels from 0.5 to 1.5 eye heights
 * below the lower lid (past the lower lashes), across the eye's width.
 */
function skinBelowEye(
  img: RgbImage,
  lx: number[],
  ly: number[],
  xa: number,
  xb: number,
  height: number,
): [number, number, number] {
  const ch: number[][] = [[], [], []];
  for (let x = Math.ceil(xa); x <= Math.floor(xb); x++) {
    if (x < 0 || x >= img.width) continue;
    const y0 = polyY(lx, ly, x);
    for (let y = Math.ceil(y0 + 0.5 * height); y <= Math.floor(y0 + 1.5 * height); y++) {
      if (y < 0 || y >= img.height) continue;
      const i = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) ch[c].push(img.data[i + c]);
    }
  }
  const med = (xs: number[]) => {
    if (!xs.length) return 128;
    xs.sort((a, b) => a - b);
    return xs[xs.length >> 1];
  };
  return [med(ch[0]), med(ch[1]), med(ch[2])];
}

/** Interpolate y on a polyline (points sorted by x) at x. */
function polyY(xs: number[], ys: number[], x: number): number {
  if (x <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++)
    if (x <= xs[i]) return ys[i - 1] + ((ys[i] - ys[i - 1]) * (x - xs[i - 1])) / Math.max(1e-6, xs[i] - xs[i - 1]);
  return ys[ys.length - 1];
}

/**
 * Closed-eyelid texture: the eye opening above the lid line (which moves from the upper lid to the
 * lower lid as `f` → 1) is replaced by eyelid skin, with a dark lash line at the lid edge.
 * Stretching the eyelid triangles alone only dips the mesh EAR ~20 %.
 *
 * The lid takes its texture from just above the upper lid (mirrored) but its colour from the skin
 * below the eye: a closed eyelid is skin. Above the lid sit the crease, lashes, brow and make-up;
 * mirrored as they are, on a face with dark lids (sample6#3) they painted a dark patch over the
 * eye that the mesh read as a half-open eye (a 22-23 % drop of the eye-aspect ratio where another
 * face's closed eye dropped 65 %). The mirrored pixels now only modulate the skin colour a little.
 */
export function paintClosedLid(dst: RgbImage, p: Float32Array, eye: typeof IDX.rightEye | typeof IDX.leftEye, f: number): void {
  const corner = (i: number) => [p[i * 3], p[i * 3 + 1]] as const;
  const sortPts = (idx: number[]) => idx.map(corner).sort((a, b) => a[0] - b[0]);
  const up = sortPts([eye.outer, ...eye.upper, eye.inner]);
  const lo = sortPts([eye.outer, ...eye.lower, eye.inner]);
  const ux = up.map((q) => q[0]),
    uy = up.map((q) => q[1]),
    lx = lo.map((q) => q[0]),
    ly = lo.map((q) => q[1]);
  const xa = Math.min(...ux),
    xb = Math.max(...ux);
  const width = xb - xa;
  const height = Math.max(...lo.map((q) => q[1])) - Math.min(...up.map((q) => q[1]));
  // the mesh contour sits inside the visible eye: grow the painted region up and sideways
  const grow = 0.45 * height + 1.5;
  const x0 = Math.floor(xa - 0.15 * width),
    x1 = Math.ceil(xb + 0.15 * width);
  const w = dst.width;
  const px = new Float32Array(3);
  const src: RgbImage = { width: dst.width, height: dst.height, data: Uint8Array.from(dst.data) };
  const skin = skinBelowEye(src, lx, ly, xa, xb, height);
  const skinLum = (skin[0] + skin[1] + skin[2]) / 3;
  // the mirrored band's own mean brightness: its texture is taken relative to it
  let bandSum = 0,
    bandN = 0;
  for (let x = Math.ceil(xa); x <= Math.floor(xb); x++) {
    const yu = polyY(ux, uy, x) - grow;
    for (let k = 0; k < 3; k++) {
      sampleBilinear(src, x, yu - 3 - k * 0.35 * height, px);
      bandSum += (px[0] + px[1] + px[2]) / 3;
      bandN++;
    }
  }
  const bandLum = bandN ? bandSum / bandN : skinLum;
  for (let x = x0; x <= x1; x++) {
    if (x < 0 || x >= w) continue;
    const xc = Math.min(xb, Math.max(xa, x));
    const side = x < xa ? (xa - x) / (0.15 * width) : x > xb ? (x - xb) / (0.15 * width) : 0; // 0 inside, 1 at the tips
    const yu = polyY(ux, uy, xc) - grow * (1 - side),
      yl = polyY(lx, ly, xc) + 1;
    if (yl <= yu) continue;
    const lid = yu + f * (yl - yu);
    for (let y = Math.floor(yu) - 1; y <= Math.ceil(lid) + 1; y++) {
      if (y < 0 || y >= dst.height) continue;
      const i = (y * w + x) * 3;
      if (y <= lid) {
        const sy = yu - (lid - y) * 0.7 - 3; // mirror lid skin from just above
        sampleBilinear(src, x, sy, px);
        // its texture (brightness relative to the band's, within ±12 %) on the skin colour,
        // a little darker towards the lash line as a lid's fold shades it
        const rel = Math.min(1.12, Math.max(0.88, (px[0] + px[1] + px[2]) / 3 / Math.max(1, bandLum)));
        const shade = rel * (1 - 0.08 * Math.max(0, Math.min(1, (y - yu) / Math.max(1, lid - yu))));
        for (let c = 0; c < 3; c++) px[c] = skin[c] * shade;
        const edge = Math.min(1, Math.max(0, lid - y + 0.5)) * Math.min(1, Math.max(0, y - yu + 1.5) / 2) * (1 - 0.6 * side);
        const a = Math.min(1, f * 1.2) * edge;
        for (let c = 0; c < 3; c++) dst.data[i + c] = Math.round(dst.data[i + c] * (1 - a) + px[c] * a);
      }
      if (f > 0.5 && Math.abs(y - lid) <= 0.9 && side < 0.8) {
        for (let c = 0; c < 3; c++) dst.data[i + c] = Math.round(dst.data[i + c] * (0.5 + 0.3 * side));
      }
    }
  }
}

// ---------------------------------------------------------------------------------- screen light

/** The page's screen-colour sequence: colour k ('#rrggbb') from media time `changes[k]` seconds. */
export interface LightSequence {
  colours: readonly string[];
  changes: readonly number[];
}

/** How the phone screen's light reaches the camera. Strengths are fractions of the pixel value. */
export interface LightModel {
  /** skin inside the face oval under a full-intensity primary (a phone at ~30 cm indoors: a few %) */
  strength: number;
  /** the background (a metre or more away): about a tenth of the face's */
  background: number;
  /** display + camera delay, seconds */
  lagS: number;
  /** auto-exposure smoothing of a colour change (first-order time constant), seconds */
  rampS: number;
  /** fraction of the frame-average tint the camera's white balance removes at steady state */
  awb: number;
  awbS: number;
}

export const DEFAULT_LIGHT_MODEL: LightModel = { strength: 0.04, background: 0.004, lagS: 0.1, rampS: 0.12, awb: 0.5, awbS: 1.5 };

/**
 * Screen light (linear RGB) as the camera sees it at media time t: nothing before the first
 * colour, then each change `lagS` late and smoothed with time constant `rampS`.
 */
export function screenLightAt(seq: LightSequence, t: number, model: LightModel = DEFAULT_LIGHT_MODEL): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  let prev = [0, 0, 0];
  seq.colours.forEach((c, k) => {
    const x = t - seq.changes[k] - model.lagS;
    if (x <= 0) return;
    const l = hexToLinear(c);
    const r = 1 - Math.exp(-x / Math.max(1e-3, model.rampS));
    for (let ch = 0; ch < 3; ch++) out[ch] += (l[ch] - prev[ch]) * r;
    prev = l;
  });
  return out;
}

/**
 * Where the screen's light comes from, seen from the face (x right, y down, z away from the camera):
 * the screen's middle sits a little below the camera of a phone held at arm's length (about 11°).
 */
export const SCREEN_DIRECTION: readonly [number, number, number] = (() => {
  const v = [0, 0.2, -1];
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n] as const;
})();

/**
 * How the face takes the screen's light: `physics`, each point by the cosine between its surface
 * normal and the direction to the screen (Lambert; the normals from the posed face mesh), so that
 * regions facing the screen change more than those turned away; `uniform`, every point of the face
 * alike at the physics' mean level (a puppet tinting the face in the revealed colour, or a flat
 * print: every point of a sheet faces the screen alike).
 */
export type LightShading = 'physics' | 'uniform';

/**
 * The Lambert factor of the screen's light per pixel of a posed face (0 off the face): per-vertex
 * normals of the mesh (`pts`: the rig's posed points, mesh then rings; `tris`: rigTriangles),
 * interpolated over each triangle far first (the near surface covers the far one), and falling to 0
 * over the band of hair and neck around the face oval.
 */
export function shadeMap(
  pts: Float32Array,
  tris: Int32Array,
  width: number,
  height: number,
  shading: LightShading = 'physics',
): Float32Array {
  const nTri = tris.length / 3;
  const bandTris = IDX.faceOval.length * 4;
  const vn = new Float64Array(468 * 3);
  let zSum = 0;
  for (let k = bandTris; k < nTri; k++) {
    const a = tris[k * 3] * 3,
      b = tris[k * 3 + 1] * 3,
      c = tris[k * 3 + 2] * 3;
    const ux = pts[b] - pts[a],
      uy = pts[b + 1] - pts[a + 1],
      uz = pts[b + 2] - pts[a + 2];
    const vx = pts[c] - pts[a],
      vy = pts[c + 1] - pts[a + 1],
      vz = pts[c + 2] - pts[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    zSum += nz;
    for (const i of [a, b, c]) {
      vn[i] += nx;
      vn[i + 1] += ny;
      vn[i + 2] += nz;
    }
  }
  // the mesh's winding is the same for every triangle: orient the normals towards the camera (−z)
  const sign = zSum > 0 ? -1 : 1;
  const shade = new Float32Array(pts.length / 3);
  let mean = 0;
  for (let i = 0; i < 468; i++) {
    const x = vn[i * 3] * sign,
      y = vn[i * 3 + 1] * sign,
      z = vn[i * 3 + 2] * sign;
    const n = Math.hypot(x, y, z);
    shade[i] = n > 0 ? Math.max(0, (x * SCREEN_DIRECTION[0] + y * SCREEN_DIRECTION[1] + z * SCREEN_DIRECTION[2]) / n) : 0;
    mean += shade[i] / 468;
  }
  const oval = IDX.faceOval;
  if (shading === 'uniform') {
    // a tint painted over the face region, out to the inner ring and fading to the outer one: the
    // face mesh the analysis finds may reach a little past the one rendered
    shade.fill(mean, 0, 468 + oval.length);
  } else oval.forEach((v, k) => (shade[468 + k] = 0.5 * shade[v])); // inner ring: hair, ears, neck
  const map = new Float32Array(width * height);
  const depth = (k: number) => pts[tris[k * 3] * 3 + 2] + pts[tris[k * 3 + 1] * 3 + 2] + pts[tris[k * 3 + 2] * 3 + 2];
  const order: number[] = [];
  for (let k = bandTris; k < nTri; k++) order.push(k);
  order.sort((p, q) => depth(q) - depth(p));
  for (let k = 0; k < bandTris; k++) rasterShade(map, width, height, pts, shade, tris[k * 3], tris[k * 3 + 1], tris[k * 3 + 2]);
  for (const k of order) rasterShade(map, width, height, pts, shade, tris[k * 3], tris[k * 3 + 1], tris[k * 3 + 2]);
  return map;
}

function rasterShade(
  map: Float32Array,
  w: number,
  h: number,
  t: Float32Array,
  shade: Float32Array,
  a: number,
  b: number,
  c: number,
): void {
  const x0 = t[a * 3],
    y0 = t[a * 3 + 1],
    x1 = t[b * 3],
    y1 = t[b * 3 + 1],
    x2 = t[c * 3],
    y2 = t[c * 3 + 1];
  const det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (Math.abs(det) < 1e-6) return;
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2))),
    maxX = Math.min(w - 1, Math.ceil(Math.max(x0, x1, x2)));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2))),
    maxY = Math.min(h - 1, Math.ceil(Math.max(y0, y1, y2)));
  for (let y = minY; y <= maxY; y++)
    for (let x = minX; x <= maxX; x++) {
      const l1 = ((x - x0) * (y2 - y0) - (x2 - x0) * (y - y0)) / det;
      const l2 = ((x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)) / det;
      const l0 = 1 - l1 - l2;
      if (l0 < -0.02 || l1 < -0.02 || l2 < -0.02) continue;
      map[y * w + x] = l0 * shade[a] + l1 * shade[b] + l2 * shade[c];
    }
}

/**
 * Tint a frame in place with the screen light `light` (linear RGB, 0…1 per channel): each pixel of
 * the face by `strength` × its Lambert factor in `shade` (shadeMap; null: no face in view), the
 * rest at the weak `background` level; then a global per-channel white-balance gain `wb`.
 */
export function applyScreenLight(
  frame: RgbImage,
  shade: Float32Array | null,
  light: readonly number[],
  wb: readonly number[],
  model: LightModel = DEFAULT_LIGHT_MODEL,
): void {
  const bgGain = [0, 1, 2].map((c) => (1 + model.background * light[c]) * wb[c]);
  const faceExtra = [0, 1, 2].map((c) => (model.strength - model.background) * light[c] * wb[c]);
  const { width: w, height: h, data } = frame;
  // off the face only the background gain applies: one table per channel
  const lut = new Uint8Array(3 * 256);
  for (let c = 0; c < 3; c++)
    for (let v = 0; v < 256; v++) {
      const x = v * bgGain[c];
      lut[c * 256 + v] = x > 255 ? 255 : x + 0.5;
    }
  for (let p = 0; p < w * h; p++) {
    const i = p * 3;
    const f = shade ? shade[p] : 0;
    if (f <= 0) {
      data[i] = lut[data[i]];
      data[i + 1] = lut[256 + data[i + 1]];
      data[i + 2] = lut[512 + data[i + 2]];
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const v = data[i + c] * (bgGain[c] + f * faceExtra[c]);
      data[i + c] = v > 255 ? 255 : v + 0.5;
    }
  }
}

// ---------------------------------------------------------------------------------- camera

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pre-computed Gaussian noise table (σ given), read at random offsets per frame. */
export function noiseTable(sigma: number, seed: number, n = W * H * 3 + 65536): Int8Array {
  const r = rng(seed);
  const t = new Int8Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = Math.max(1e-9, r()),
      v = r();
    const m = Math.sqrt(-2 * Math.log(u)) * sigma;
    t[i] = Math.max(-127, Math.min(127, Math.round(m * Math.cos(2 * Math.PI * v))));
    if (i + 1 < n) t[i + 1] = Math.max(-127, Math.min(127, Math.round(m * Math.sin(2 * Math.PI * v))));
  }
  return t;
}

/** Shift by integer (dx, dy) with edge clamp, apply gain and sensor noise; returns a new frame. */
export function camera(
  frame: RgbImage,
  dx: number,
  dy: number,
  gain: number,
  noise: Int8Array | null,
  noiseOffset: number,
): RgbImage {
  const out = blank(frame.width, frame.height);
  const w = frame.width,
    h = frame.height;
  const src = frame.data,
    dst = out.data;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - dy));
    const row = y * w * 3,
      srow = sy * w * 3;
    for (let x = 0; x < w; x++) {
      const sx = x - dx < 0 ? 0 : x - dx > w - 1 ? w - 1 : x - dx;
      const i = row + x * 3,
        j = srow + sx * 3;
      for (let c = 0; c < 3; c++) {
        const v = src[j + c] * gain + (noise ? noise[noiseOffset + i + c] : 0);
        dst[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return out;
}
