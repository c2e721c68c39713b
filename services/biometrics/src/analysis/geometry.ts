/**
 * Pure geometry on MediaPipe/Human 468(+10 iris)-point face meshes. No model, no I/O.
 * Index names follow the subject: "right eye" is the subject's right (image left in a
 * non-mirrored capture).
 */
export type Pt = readonly [number, number, number?] | readonly number[];

/** Mesh indices used by the analysis and the corpus generator. */
export const IDX = {
  rightEye: {
    outer: 33,
    inner: 133,
    upper: [246, 161, 160, 159, 158, 157, 173],
    lower: [7, 163, 144, 145, 153, 154, 155],
    pairs: [
      [160, 144],
      [159, 145],
      [158, 153],
    ] as const,
  },
  leftEye: {
    outer: 263,
    inner: 362,
    upper: [466, 388, 387, 386, 385, 384, 398],
    lower: [249, 390, 373, 374, 380, 381, 382],
    pairs: [
      [387, 373],
      [386, 374],
      [385, 380],
    ] as const,
  },
  mouth: { rightCorner: 61, leftCorner: 291, upperInner: 13, lowerInner: 14, upperOuter: 0, lowerOuter: 17 },
  noseTip: 1,
  chin: 152,
  forehead: 10,
  /** face oval, in order around the face */
  faceOval: [
    10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172,
    58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
  ],
} as const;

export function dist2(a: Pt, b: Pt): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** Distance between the outer eye corners (the scale unit for mouth metrics). */
export function interOcular(mesh: readonly Pt[]): number {
  return dist2(mesh[IDX.rightEye.outer], mesh[IDX.leftEye.outer]);
}

/**
 * Eye aspect ratio (Soukupová & Čech): mean lid-to-lid distance of three vertical pairs divided by
 * the corner-to-corner width. Open eyes ≈ 0.25–0.35 on the mesh, closed eyes drop 30–45 %.
 */
export function eyeAspectRatio(mesh: readonly Pt[], eye: typeof IDX.rightEye | typeof IDX.leftEye): number {
  const width = dist2(mesh[eye.outer], mesh[eye.inner]);
  if (width <= 0) return 0;
  let v = 0;
  for (const [a, b] of eye.pairs) v += dist2(mesh[a], mesh[b]);
  return v / eye.pairs.length / width;
}

/** Mean EAR of both eyes. */
export function meanEar(mesh: readonly Pt[]): number {
  return (eyeAspectRatio(mesh, IDX.rightEye) + eyeAspectRatio(mesh, IDX.leftEye)) / 2;
}

export interface MouthMetrics {
  /** corner-to-corner mouth width / inter-ocular distance */
  widthRatio: number;
  /** (inner-lip midpoint y − mean corner y) / inter-ocular distance; grows when corners lift */
  cornerLift: number;
}

export function mouthMetrics(mesh: readonly Pt[]): MouthMetrics {
  const io = interOcular(mesh);
  if (io <= 0) return { widthRatio: 0, cornerLift: 0 };
  const r = mesh[IDX.mouth.rightCorner];
  const l = mesh[IDX.mouth.leftCorner];
  const midY = (mesh[IDX.mouth.upperInner][1] + mesh[IDX.mouth.lowerInner][1]) / 2;
  // project onto the face's own vertical axis (eye line normal) so head roll does not count as lift
  const ex = mesh[IDX.leftEye.outer][0] - mesh[IDX.rightEye.outer][0];
  const ey = mesh[IDX.leftEye.outer][1] - mesh[IDX.rightEye.outer][1];
  const n = Math.hypot(ex, ey);
  const ux = -ey / n; // face "down" direction (perpendicular to the eye line)
  const uy = ex / n;
  const midX = (mesh[IDX.mouth.upperInner][0] + mesh[IDX.mouth.lowerInner][0]) / 2;
  const cornerX = (r[0] + l[0]) / 2;
  const cornerY = (r[1] + l[1]) / 2;
  const lift = ((midX - cornerX) * ux + (midY - cornerY) * uy) / io;
  return { widthRatio: dist2(r, l) / io, cornerLift: lift };
}

/**
 * Non-rigid motion: align `mesh` to `base` with a least-squares 2-D similarity transform
 * (Procrustes: scale, rotation, translation) and return the RMS residual divided by the base
 * inter-ocular distance. A photo moved in front of the camera stays near 0 (only rigid 2-D motion
 * and a little perspective); head turns, blinks and smiles produce clearly larger residuals.
 */
export function nonRigidResidual(base: readonly Pt[], mesh: readonly Pt[], count = 468): number {
  const n = Math.min(count, base.length, mesh.length);
  if (n < 3) return 0;
  let bx = 0,
    by = 0,
    mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    bx += base[i][0];
    by += base[i][1];
    mx += mesh[i][0];
    my += mesh[i][1];
  }
  bx /= n;
  by /= n;
  mx /= n;
  my /= n;
  let a = 0,
    b = 0,
    norm = 0;
  for (let i = 0; i < n; i++) {
    const px = mesh[i][0] - mx,
      py = mesh[i][1] - my;
    const qx = base[i][0] - bx,
      qy = base[i][1] - by;
    a += px * qx + py * qy;
    b += px * qy - py * qx;
    norm += px * px + py * py;
  }
  if (norm === 0) return 0;
  const sa = a / norm,
    sb = b / norm; // [sa -sb; sb sa] maps mesh → base
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const px = mesh[i][0] - mx,
      py = mesh[i][1] - my;
    const x = sa * px - sb * py + bx,
      y = sb * px + sa * py + by;
    ss += (x - base[i][0]) ** 2 + (y - base[i][1]) ** 2;
  }
  const io = interOcular(base);
  return io > 0 ? Math.sqrt(ss / n) / io : 0;
}

/** L2-normalise a descriptor. */
export function l2normalize(v: readonly number[]): number[] {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
}

/**
 * Raw descriptor distance: Euclidean distance between L2-normalised descriptors
 * (0 = identical direction, √2 = orthogonal, 2 = opposite). Thresholds are set on this, not on
 * Human's clamped similarity.
 */
export function descriptorDistance(a: readonly number[], b: readonly number[]): number {
  const na = l2normalize(a),
    nb = l2normalize(b);
  let s = 0;
  for (let i = 0; i < na.length; i++) s += (na[i] - nb[i]) ** 2;
  return Math.sqrt(s);
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
