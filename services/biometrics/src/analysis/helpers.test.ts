import { describe, expect, it } from 'vitest';
import { analysisConfig, type Action } from './config.js';
import { descriptorDistance, eyeAspectRatio, IDX, meanEar, mouthMetrics, nonRigidResidual, type Pt } from './geometry.js';
import {
  computeBaseline,
  computeDeltas,
  detectEvents,
  findRuns,
  matchSequence,
  type ActionEvent,
  type FrameDeltas,
  type FrameSignals,
} from './sequence.js';
import { FrameFeed, grey, mapLimited, mapOrdered, meanAbsDiff, ncc, sensorNoise } from './frame-ops.js';
import type { RgbImage } from './media.js';

/** A 468-point mesh with two eyes, a mouth and scattered other points. */
function syntheticMesh(eyeOpen = 1, smile = 0): number[][] {
  const m: number[][] = Array.from({ length: 478 }, (_, i) => [100 + (i % 20) * 5, 100 + Math.floor(i / 20) * 5, 0]);
  const eye = (e: typeof IDX.rightEye | typeof IDX.leftEye, cx: number) => {
    m[e.outer] = [cx - 15, 100, 0];
    m[e.inner] = [cx + 15, 100, 0];
    const xs = [-7.5, 0, 7.5];
    e.pairs.forEach(([u, l], k) => {
      m[u] = [cx + xs[k], 100 - 5 * eyeOpen, 0];
      m[l] = [cx + xs[k], 100 + 5 * eyeOpen, 0];
    });
  };
  eye(IDX.rightEye, 80); // outer corner at 65
  eye(IDX.leftEye, 160); // outer corner at 175 → inter-ocular 110 (outer corners 65..175)
  m[IDX.rightEye.outer] = [65, 100, 0];
  m[IDX.leftEye.outer] = [175, 100, 0];
  m[IDX.mouth.rightCorner] = [90 - 10 * smile, 160 - 6 * smile, 0];
  m[IDX.mouth.leftCorner] = [150 + 10 * smile, 160 - 6 * smile, 0];
  m[IDX.mouth.upperInner] = [120, 158, 0];
  m[IDX.mouth.lowerInner] = [120, 162, 0];
  return m;
}

describe('eye aspect ratio', () => {
  it('is the mean lid distance over the corner distance', () => {
    const m = syntheticMesh(1);
    const w = Math.hypot(m[IDX.rightEye.outer][0] - m[IDX.rightEye.inner][0], 0);
    expect(eyeAspectRatio(m, IDX.rightEye)).toBeCloseTo(10 / w, 6);
  });
  it('drops in proportion to lid closure and is scale invariant', () => {
    const open = meanEar(syntheticMesh(1));
    const closed = meanEar(syntheticMesh(0.4));
    expect(closed / open).toBeCloseTo(0.4, 6);
    const scaled = syntheticMesh(1).map((p) => [p[0] * 3, p[1] * 3, 0]);
    expect(meanEar(scaled)).toBeCloseTo(open, 6);
  });
  it('is 0 for a degenerate eye', () => {
    const m = syntheticMesh(1);
    m[IDX.rightEye.inner] = m[IDX.rightEye.outer];
    expect(eyeAspectRatio(m, IDX.rightEye)).toBe(0);
  });
});

describe('mouth metrics', () => {
  it('width grows and corners lift with a smile', () => {
    const n = mouthMetrics(syntheticMesh(1, 0));
    const s = mouthMetrics(syntheticMesh(1, 1));
    expect(n.widthRatio).toBeCloseTo(60 / 110, 6);
    expect(s.widthRatio).toBeCloseTo(80 / 110, 6);
    expect(s.cornerLift - n.cornerLift).toBeCloseTo(6 / 110, 6);
  });
  it('corner lift ignores head roll', () => {
    const m = syntheticMesh(1, 1);
    const a = 0.3;
    const rolled = m.map((p) => [p[0] * Math.cos(a) - p[1] * Math.sin(a), p[0] * Math.sin(a) + p[1] * Math.cos(a), 0]);
    expect(mouthMetrics(rolled).cornerLift).toBeCloseTo(mouthMetrics(m).cornerLift, 6);
  });
});

describe('non-rigid residual', () => {
  it('is ~0 under a 2-D similarity transform (a moved photo)', () => {
    const m = syntheticMesh();
    const t = m.map((p) => [
      2 * (p[0] * Math.cos(0.2) - p[1] * Math.sin(0.2)) + 40,
      2 * (p[0] * Math.sin(0.2) + p[1] * Math.cos(0.2)) - 7,
      0,
    ]);
    expect(nonRigidResidual(m as Pt[], t as Pt[])).toBeLessThan(1e-9);
  });
  it('is positive for a deformation', () => {
    expect(nonRigidResidual(syntheticMesh(1) as Pt[], syntheticMesh(0) as Pt[])).toBeGreaterThan(0.005);
  });
});

describe('descriptor distance', () => {
  it('is 0 for the same direction, √2 for orthogonal, scale-free', () => {
    expect(descriptorDistance([1, 2, 3], [2, 4, 6])).toBeCloseTo(0, 9);
    expect(descriptorDistance([1, 0], [0, 5])).toBeCloseTo(Math.SQRT2, 9);
  });
});

describe('image similarity helpers', () => {
  it('ncc is 1 for affine brightness change, mean abs diff 0 for identical', () => {
    const a = Float32Array.from({ length: 100 }, (_, i) => (i * 37) % 101);
    const b = a.map((v) => 2 * v + 10);
    expect(ncc(a, b)).toBeCloseTo(1, 9);
    expect(meanAbsDiff(a, a)).toBe(0);
  });
  it('sensor noise is the median mean abs diff of consecutive grey frames', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 256;
    const frames = Array.from({ length: 6 }, () => ({ width: 8, height: 4, data: Uint8Array.from({ length: 96 }, rnd) }));
    const diffs = frames.slice(1).map((f, i) => meanAbsDiff(grey(frames[i]), grey(f)));
    expect(sensorNoise(frames)).toBe([...diffs].sort((a, b) => a - b)[diffs.length >> 1]);
    expect(sensorNoise(frames.slice(0, 1))).toBe(0);
  });
});

const ev = (action: Action, start: number, end = start + 0.5): ActionEvent => ({ action, start, end, frames: 3, peak: 1 });

describe('sequence matching', () => {
  it('accepts the requested actions in order, ignoring extra events', () => {
    const events = [ev('blink', 0.5), ev('turn_left', 1.5), ev('blink', 3), ev('smile', 5)];
    const r = matchSequence(['turn_left', 'blink', 'smile'], events);
    expect(r.ok).toBe(true);
    expect(r.matched.map((e) => e?.start)).toEqual([1.5, 3, 5]);
  });
  it('rejects the wrong order', () => {
    const events = [ev('smile', 1), ev('blink', 3), ev('turn_left', 5)];
    const r = matchSequence(['turn_left', 'blink', 'smile'], events);
    expect(r.ok).toBe(false);
    expect(r.matched[2]).toBeNull();
  });
  it('needs each action to start after the previous one ended', () => {
    const events = [ev('turn_left', 1, 3), ev('blink', 2)];
    expect(matchSequence(['turn_left', 'blink'], events).ok).toBe(false);
  });
  it('rejects an empty challenge and honours windows', () => {
    expect(matchSequence([], [ev('blink', 1)]).ok).toBe(false);
    expect(matchSequence(['blink'], [ev('blink', 1)], [[2, 4]]).ok).toBe(false);
    expect(matchSequence(['blink'], [ev('blink', 1), ev('blink', 3)], [[2, 4]]).ok).toBe(true);
  });
});

function series(values: Partial<FrameSignals>[], fps = 8): FrameSignals[] {
  return values.map((v, i) => ({ t: i / fps, yaw: 0, pitch: 0, ear: 0.3, mouthWidth: 0.6, cornerLift: 0, ...v }));
}

describe('event detection from per-frame signals', () => {
  const cfg = analysisConfig;
  it('detects a left turn and back as a change from the baseline', () => {
    const yaws = [20, 20, 20, 20, 20, 20, 20, 20, 20, 25, 35, 36, 34, 25, 20, 20];
    const s = series(yaws.map((y) => ({ yaw: y * cfg.turn.leftSign })));
    const b = computeBaseline(s, cfg.baselineSeconds)!;
    expect(Math.abs(b.yaw)).toBe(20);
    const e = detectEvents(computeDeltas(s, b, cfg), cfg);
    expect(e.map((x) => x.action)).toEqual(['turn_left']);
  });
  it('does not count a turn that never comes back', () => {
    const yaws = [0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 15, 15, 15];
    const s = series(yaws.map((y) => ({ yaw: y * cfg.turn.leftSign })));
    expect(detectEvents(computeDeltas(s, computeBaseline(s, 1)!, cfg), cfg)).toEqual([]);
  });
  it('detects a blink as a relative EAR drop, not during a head turn', () => {
    const ears = [0.3, 0.3, 0.31, 0.29, 0.3, 0.3, 0.3, 0.3, 0.3, 0.15, 0.14, 0.3, 0.3];
    const s = series(ears.map((e) => ({ ear: e })));
    expect(detectEvents(computeDeltas(s, computeBaseline(s, 1)!, cfg), cfg).map((x) => x.action)).toEqual(['blink']);
    const turned = series(ears.map((e, i) => ({ ear: e, pitch: i >= 9 && i <= 10 ? 15 * cfg.lookUp.upSign : 0 })));
    expect(detectEvents(computeDeltas(turned, computeBaseline(turned, 1)!, cfg), cfg).map((x) => x.action)).not.toContain(
      'blink',
    );
  });
  it('detects a smile from mouth width and needs it to relax', () => {
    const w = [0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.7, 0.7, 0.7, 0.6, 0.6];
    const s = series(w.map((x) => ({ mouthWidth: x })));
    expect(detectEvents(computeDeltas(s, computeBaseline(s, 1)!, cfg), cfg).map((x) => x.action)).toEqual(['smile']);
  });
  it('findRuns keeps a run open across a frame without a face and through the hysteresis band', () => {
    const mk = (vals: (number | null)[]): FrameDeltas[] =>
      vals.map((v, i) => ({ t: i, left: v, up: 0, earDrop: 0, widthIncrease: 0, liftIncrease: 0 }));
    const on = (x: FrameDeltas) => (x.left ?? 0) > 0.7;
    const off = (x: FrameDeltas) => (x.left ?? 0) < 0.3;
    const runs = findRuns(mk([0, 1, 1, null, 0.5, 1, 0]), on, off, (x) => x.left ?? 0, 2);
    expect(runs).toEqual([{ start: 1, end: 5, frames: 3, peak: 1 }]);
    expect(findRuns(mk([0, 1, 0, 1, 0]), on, off, (x) => x.left ?? 0, 2)).toEqual([]); // two 1-frame runs
    expect(findRuns(mk([0, 1, 1, 1]), on, off, (x) => x.left ?? 0, 2)).toEqual([]); // never returns
  });
  it('has no baseline without faces', () => {
    expect(computeBaseline(series([{ yaw: null, pitch: null, ear: null, mouthWidth: null, cornerLift: null }]), 1)).toBeNull();
  });
});

describe('mapOrdered over a FrameFeed: frames taken while they are still arriving', () => {
  const frame = (k: number): RgbImage => ({ width: 1, height: 1, data: Uint8Array.of(k, k, k) });
  const tick = () => new Promise<void>((r) => setImmediate(r));

  it('starts frame i only once `ahead` frames follow it or the feed ended, in order, results in order', async () => {
    const feed = new FrameFeed();
    const started: [number, number][] = []; // [frame, frames arrived when it started]
    const done = mapOrdered(
      (i) => feed.get(i, 2),
      2,
      async (f, i) => {
        started.push([i, feed.count]);
        await tick();
        return f.data[0]! * 10;
      },
      () => undefined,
    );
    for (let k = 0; k < 6; k++) {
      feed.push(frame(k));
      await tick();
      await tick();
    }
    expect(started.every(([i, count]) => count > i + 2)).toBe(true);
    expect(started.map(([i]) => i)).toEqual([0, 1, 2, 3]);
    feed.end();
    expect(await done).toEqual([0, 10, 20, 30, 40, 50]);
    expect(started.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a failed feed rejects the map, and no frame starts after it', async () => {
    const feed = new FrameFeed();
    const started: number[] = [];
    const done = mapOrdered(
      (i) => feed.get(i),
      2,
      async (_f, i) => started.push(i),
      () => undefined,
    );
    feed.push(frame(0));
    await tick();
    feed.fail(new Error('ffmpeg exited 1'));
    feed.push(frame(1));
    await expect(done).rejects.toThrow('ffmpeg exited 1');
    await tick();
    expect(started).toEqual([0]);
  });

  it('a check that throws (a deadline) stops the other runners before their next item', async () => {
    const seen: number[] = [];
    const items = Array.from({ length: 20 }, (_, k) => k);
    await expect(
      mapLimited(
        items,
        3,
        async (x) => {
          seen.push(x);
          await tick();
        },
        () => {
          if (seen.length >= 4) throw new Error('deadline');
        },
      ),
    ).rejects.toThrow('deadline');
    for (let k = 0; k < 5; k++) await tick();
    expect(seen.length).toBeLessThanOrEqual(6);
  });
});
