import { describe, expect, it } from 'vitest';
import { dropNested, type FaceObs } from './detect.js';

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
