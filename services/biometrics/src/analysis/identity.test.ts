import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import type { FaceObs } from './detect.js';
import { descriptorDistance, l2normalize } from './geometry.js';
import { frameIdentity, oneCrop } from './identity.js';
import type { FrameDeltas } from './sequence.js';

/** A unit descriptor near `dir` (128-d): `dir` plus a small, frame-specific wobble. */
function descriptor(dir: readonly number[], frame: number, wobble = 0.005): number[] {
  return l2normalize(dir.map((x, k) => x + wobble * Math.sin(frame * 7.3 + k * 1.7)));
}

const DIM = 128;
const axis = (k: number) => Array.from({ length: DIM }, (_, i) => (i === k ? 1 : 0));
/** The signer's face as Human describes it in a tracked box, and in a detector box: 0.35 apart
 *  (as measured between consecutive frames of the two kinds, docs/biometrics-evaluation.md). */
const TRACKED = l2normalize(axis(0));
const DETECTOR = l2normalize(axis(0).map((x, i) => x + (i === 1 ? 0.36 : 0)));

function face(embedding: number[] | undefined, tracked: boolean): FaceObs {
  return { box: [0, 0, 100, 100], mesh: [], yawDeg: 0, pitchDeg: 0, embedding, ...(tracked ? { tracked: true } : {}) };
}

/** 64 frames at 8 fps: the detector on every 4th, a description on every odd frame (tracked) and on
 *  every frame of the last 1.5 s (either kind), as the frame plan and the tracking make them. */
function capture(): { perFrame: FaceObs[][]; planned: boolean[]; times: number[]; deltas: FrameDeltas[] } {
  const n = 64;
  const times = Array.from({ length: n }, (_, i) => i / 8);
  const planned = times.map((t, i) => i % 2 === 1 || t >= times[n - 1] - 1.5);
  const perFrame = times.map((_, i) => {
    const tracked = i % 4 !== 0;
    return [face(planned[i] ? descriptor(tracked ? TRACKED : DETECTOR, i) : undefined, tracked)];
  });
  const deltas = times.map((t) => ({ t, left: 0, up: 0, earDrop: 0, widthIncrease: 0, liftIncrease: 0 }));
  return { perFrame, planned, times, deltas };
}

describe('identity on one crop', () => {
  it('compares only the tracked frames when they are the most of those described', () => {
    const { perFrame, planned } = capture();
    const described = planned.flatMap((p, i) => (p ? [i] : []));
    const kept = oneCrop(perFrame, described);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((i) => i % 4 !== 0)).toBe(true);
    expect(kept.length).toBe(described.filter((i) => i % 4 !== 0).length);
  });

  it('falls back to the detector frames when most were described in detector boxes (no tracking)', () => {
    const perFrame = Array.from({ length: 10 }, (_, i) => [face(descriptor(DETECTOR, i), i === 3)]);
    const kept = oneCrop(
      perFrame,
      perFrame.map((_, i) => i),
    );
    expect(kept).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps the crop mismatch out of every distance: the worst frame stays near the face’s own wobble', () => {
    const { perFrame, planned, times, deltas } = capture();
    const faceFrames = perFrame.map((_, i) => i);
    const r = frameIdentity(perFrame, faceFrames, deltas, times, planned, analysisConfig);
    const threshold = analysisConfig.identity.poseMaxDistance.neutral;
    // the two crops of one face, 0.35 apart, mixed: the old rule's distances carried the mismatch
    expect(descriptorDistance(TRACKED, DETECTOR)).toBeGreaterThan(0.3);
    expect(r.identityMax! * threshold).toBeLessThan(0.1);
    expect(r.embFrames.every((i) => perFrame[i][0].tracked)).toBe(true);
    // every planned frame was described: full coverage, counted over both kinds
    expect(r.identityCoverage).toBe(1);
    expect(r.described.length).toBeGreaterThan(r.embFrames.length);
  });

  it('still fails another person under the tracked boxes', () => {
    const { perFrame, planned, times, deltas } = capture();
    const other = l2normalize(axis(2));
    for (const i of [41, 43, 45]) perFrame[i] = [face(descriptor(other, i), true)];
    const r = frameIdentity(
      perFrame,
      perFrame.map((_, i) => i),
      deltas,
      times,
      planned,
      analysisConfig,
    );
    expect(r.identityMax!).toBeGreaterThan(1);
    expect(r.identityWorst!.t).toBeGreaterThanOrEqual(41 / 8);
  });
});
