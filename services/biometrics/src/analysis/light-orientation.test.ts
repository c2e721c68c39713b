import { describe, expect, it } from 'vitest';
import { SKIN_POINTS, type Vec3 } from './light-measure.js';
import {
  discFacing,
  expectedAt,
  MESH_Z_UNITS,
  NOSE_SIDE_POINTS,
  ORIENTATION_POINTS,
  orientationFit,
} from './light-orientation.js';

/** A mesh whose points all lie on the plane z = a·x + b·y (z in mesh units at `zScale`), on a grid
 *  `cols` wide (39: no skin point on the grid's edge). */
function planeMesh(a: number, b: number, zScale: number, cols = 26): number[][] {
  const m: number[][] = [];
  for (let i = 0; i < 468; i++) {
    const x = 100 + (i % cols) * 4,
      y = 100 + Math.floor(i / cols) * 4;
    m.push([x, y, (a * x + b * y) / zScale]);
  }
  return m;
}

describe('the discs the orientation fit compares', () => {
  it('are distinct mesh points: the light check’s first, then the rest, the 38 beside the nose last', () => {
    expect(new Set(ORIENTATION_POINTS).size).toBe(ORIENTATION_POINTS.length);
    expect(ORIENTATION_POINTS.every((i) => Number.isInteger(i) && i >= 0 && i < 468)).toBe(true);
    expect(ORIENTATION_POINTS.slice(0, SKIN_POINTS.length)).toEqual([...SKIN_POINTS]);
    expect(NOSE_SIDE_POINTS).toHaveLength(38);
    expect(ORIENTATION_POINTS.slice(-NOSE_SIDE_POINTS.length)).toEqual([...NOSE_SIDE_POINTS]);
  });
});

describe('discFacing', () => {
  it('gives the cosine between a plane’s normal and the camera axis, whatever the sign of z', () => {
    const zScale = 200 / MESH_Z_UNITS;
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [-1, 0],
      [0, Math.sqrt(3)],
      [0.5, -0.5],
    ]) {
      const f = discFacing(planeMesh(a, b, zScale), zScale, 12);
      for (const c of f) expect(c).toBeCloseTo(1 / Math.sqrt(1 + a * a + b * b), 6);
    }
  });

  it('scales the mesh’s z by the box: the same mesh read at twice the depth faces further away', () => {
    const m = planeMesh(1, 0, 1);
    expect(discFacing(m, 1, 12)[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(discFacing(m, 2, 12)[0]).toBeCloseTo(1 / Math.sqrt(5), 6);
  });

  it('takes the vertex normal from a triangulation when given one, towards the screen below the camera', () => {
    // a fan of 6 triangles around each skin point, all on the plane z = 0.5·x (turned 26.6° about y)
    const zScale = 1;
    const m = planeMesh(0.5, 0, zScale, 39);
    const tris: number[] = [];
    for (const idx of SKIN_POINTS) {
      const around = [1, 40, 39, 38, -1, -40, -39, -38].map((o) => idx + o);
      // the neighbours on the grid: right, below-right, below, …; each triangle (centre, n_i, n_i+1)
      for (let q = 0; q < around.length; q++) tris.push(idx, around[q], around[(q + 1) % around.length]);
    }
    for (const c of discFacing(m, zScale, 12, 0, tris)) expect(c).toBeCloseTo(1 / Math.sqrt(1.25), 3);
    // the winding of the triangulation does not matter
    const flipped = tris.map((_, i) => tris[i - (i % 3) + (2 - (i % 3))]);
    for (const c of discFacing(m, zScale, 12, 0, flipped)) expect(c).toBeCloseTo(1 / Math.sqrt(1.25), 3);
    // a surface facing down (z grows downwards) takes more of a screen below the camera
    const down = planeMesh(0, 0.5, zScale, 39);
    const [level] = discFacing(down, zScale, 12, 0, tris);
    const [below] = discFacing(down, zScale, 12, 0.2, tris);
    expect(below!).toBeGreaterThan(level!);
    expect(below!).toBeCloseTo((0.5 * 0.2 + 1) / (Math.sqrt(1.25) * Math.hypot(0.2, 1)), 3);
  });

  it('is null for a disc with too few mesh points around it', () => {
    const m = planeMesh(0, 0, 1);
    expect(discFacing(m, 1, 1)).toEqual(SKIN_POINTS.map(() => null));
  });
});

describe('orientationFit', () => {
  const K = SKIN_POINTS.length;
  const frames = 80;
  const palette: Vec3[] = [
    [0.5, -0.25, -0.25],
    [-0.25, 0.5, -0.25],
    [-0.25, -0.25, 0.5],
  ];
  const expected: Vec3[] = Array.from({ length: frames }, (_, j) => palette[Math.floor(j / 8) % 3]);
  // facings: discs from 0.55 to 0.95, and a head turn in the middle that swaps the sides
  const facing = Array.from({ length: frames }, (_, j) =>
    Array.from({ length: K }, (_, k) => {
      const base = 0.55 + (0.4 * k) / (K - 1);
      return j >= 30 && j < 50 ? 1.5 - base : base;
    }),
  );
  let seed = 3;
  const noise = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647 - 0.5) * 0.002;
  };
  const make = (gain: (c: number) => number, offset = 0.01): Vec3[][] =>
    expected.map((e, j) => facing[j].map((c, k) => e.map((v) => gain(c) * 0.02 * v + offset * k + noise() + 0.3) as Vec3));

  it('credits a response in proportion to the facing to the orientation (share ≈ 1)', () => {
    const fit = orientationFit(
      make((c) => c),
      facing,
      expected,
    )!;
    expect(fit.share).toBeGreaterThan(0.9);
    expect(fit.share).toBeLessThan(1.1);
    expect(fit.samples).toBe(frames * K);
    expect(fit.discs).toBe(K);
    expect(fit.facingSpread).toBeGreaterThan(0.05);
  });

  it('gives a uniform response (a tint) no share, whatever its strength', () => {
    for (const g of [0.5, 1, 3]) {
      const fit = orientationFit(
        make(() => g),
        facing,
        expected,
      )!;
      expect(Math.abs(fit.share)).toBeLessThan(0.1);
    }
  });

  it('gives a half-and-half response about half', () => {
    const fit = orientationFit(
      make((c) => 0.375 + 0.5 * c),
      facing,
      expected,
    )!;
    expect(fit.share).toBeGreaterThan(0.4);
    expect(fit.share).toBeLessThan(0.6);
  });

  it('gives a response that is stronger where the skin is turned away (against physics) no share', () => {
    const fit = orientationFit(
      make((c) => 1.5 - c),
      facing,
      expected,
    )!;
    expect(fit.share).toBeLessThan(0);
  });

  it('is null when the facings do not vary or too few samples are usable', () => {
    const same = facing.map((row) => row.map(() => 0.8));
    expect(
      orientationFit(
        make((c) => c),
        same,
        expected,
      ),
    ).toBeNull();
    const few = expected.map((e, j) => (j < 3 ? e : null));
    expect(
      orientationFit(
        make((c) => c),
        facing,
        few,
      ),
    ).toBeNull();
  });
});

describe('orientationFit: skin seen at a grazing angle', () => {
  // 20 discs, half of them turned almost edge-on (facing 0.02 to 0.27), half facing 0.35 to 0.95; the
  // camera sits beside the screen, so a disc turned from the screen is turned from the camera too, and
  // the camera keeps less of any colour change there: `seen` falls from 1 at a facing of 0.3 to 0 edge-on
  const K = 20;
  const frames = 60;
  const palette: Vec3[] = [
    [0.5, -0.25, -0.25],
    [-0.25, 0.5, -0.25],
    [-0.25, -0.25, 0.5],
  ];
  const expected: Vec3[] = Array.from({ length: frames }, (_, j) => palette[Math.floor(j / 6) % 3]);
  const facing = Array.from({ length: frames }, () =>
    Array.from({ length: K }, (_, k) => (k < K / 2 ? 0.02 + (0.25 * k) / (K / 2 - 1) : 0.35 + (0.6 * (k - K / 2)) / (K / 2 - 1))),
  );
  const seen = (c: number) => Math.min(1, c / 0.3);
  const make = (gain: (c: number) => number): Vec3[][] =>
    expected.map((e, j) => facing[j].map((c, k) => e.map((v) => gain(c) * 0.02 * v + 0.01 * k + 0.3) as Vec3));

  it('a uniform tint that the camera keeps less of where the skin turns away looks oriented, unless those discs are left out', () => {
    const tint = make(seen);
    const all = orientationFit(tint, facing, expected)!;
    expect(all.share).toBeGreaterThan(0.2);
    const fit = orientationFit(tint, facing, expected, 30, 0.05, 0.3)!;
    expect(Math.abs(fit.share)).toBeLessThan(0.05);
    expect(fit.discs).toBe(K / 2);
  });

  it('light as physics gives it keeps its share with those discs left out', () => {
    const fit = orientationFit(
      make((c) => c * seen(c)),
      facing,
      expected,
      30,
      0.05,
      0.3,
    )!;
    expect(fit.share).toBeGreaterThan(0.9);
    expect(fit.share).toBeLessThan(1.1);
  });

  it('a face lit by physics whose grazing discs the mesh misreads (they respond as if facing 0.6) keeps its share only without them', () => {
    const misread = make((c) => (c < 0.3 ? 0.6 : c));
    expect(orientationFit(misread, facing, expected)!.share).toBeLessThan(0.6);
    const fit = orientationFit(misread, facing, expected, 30, 0.05, 0.3)!;
    expect(fit.share).toBeGreaterThan(0.9);
  });

  it('is null when fewer than 5 discs face the screen enough', () => {
    const turned = facing.map((row) => row.map((c) => c * 0.3));
    expect(orientationFit(make(seen), turned, expected, 30, 0.05, 0.3)).toBeNull();
  });
});

describe('expectedAt', () => {
  it('settles on the segment’s colour after the ramp and is null outside the timeline', () => {
    const vecs = [
      [1, 0, -1],
      [-1, 1, 0],
    ];
    const seq = Int32Array.from([0, 1]);
    expect(expectedAt(-0.1, [0, 1], 2, seq, vecs, 0.1)).toBeNull();
    expect(expectedAt(2.1, [0, 1], 2, seq, vecs, 0.1)).toBeNull();
    expect(expectedAt(0.9, [0, 1], 2, seq, vecs, 0.1)).toEqual([1, 0, -1]);
    const late = expectedAt(1.9, [0, 1], 2, seq, vecs, 0.1)!;
    late.forEach((v, c) => expect(v).toBeCloseTo(vecs[1][c], 3));
  });
});
