import { describe, expect, it } from 'vitest';
import { dropNested, mayReuseBoxes, TRACK_MAX_GAP, type FaceObs } from './detect.js';

describe('mayReuseBoxes: a frame tracks only its own capture, a little later', () => {
  const last = { capture: 7, frame: 10 };
  it('reuses the boxes of the same capture within the gap', () => {
    expect(mayReuseBoxes(last, { capture: 7, frame: 11, reuse: true })).toBe(true);
    expect(mayReuseBoxes(last, { capture: 7, frame: 10 + TRACK_MAX_GAP, reuse: true })).toBe(true);
  });
  it('detects afresh: planned, another capture, an earlier or the same frame, a long gap, nothing before', () => {
    expect(mayReuseBoxes(last, { capture: 7, frame: 11, reuse: false })).toBe(false);
    expect(mayReuseBoxes(last, { capture: 8, frame: 11, reuse: true })).toBe(false);
    expect(mayReuseBoxes(last, { capture: 7, frame: 9, reuse: true })).toBe(false);
    expect(mayReuseBoxes(last, { capture: 7, frame: 10, reuse: true })).toBe(false);
    expect(mayReuseBoxes(last, { capture: 7, frame: 11 + TRACK_MAX_GAP, reuse: true })).toBe(false);
    expect(mayReuseBoxes(null, { capture: 7, frame: 11, reuse: true })).toBe(false);
    expect(mayReuseBoxes(last, undefined)).toBe(false);
  });
});

describe('dropNested: a second box on the same face is not a second face (tracked frames)', () => {
  const face = (x: number, y: number, w: number): FaceObs => ({ box: [x, y, w, w], mesh: [], yawDeg: 0, pitchDeg: 0 });
  it('drops a smaller face centred inside a larger one', () => {
    // the detector's offset duplicate seen on a genuine capture: [161,42,368,367] and [0,116,338,363]
    const signer = face(161, 42, 368);
    expect(dropNested([signer, { ...face(0, 116, 338), box: [0, 116, 338, 363] }])).toEqual([signer]);
  });
  it('keeps a second person beside the signer, and a lone face', () => {
    const a = face(40, 100, 200);
    const b = face(360, 120, 180);
    expect(dropNested([a, b])).toEqual([a, b]);
    expect(dropNested([a])).toEqual([a]);
    expect(dropNested([])).toEqual([]);
  });
});
