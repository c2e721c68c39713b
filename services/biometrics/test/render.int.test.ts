/**
 * The corpus renderer's closed eyelid (test/corpus/render.ts paintClosedLid), on a synthetic eye:
 * no model, no infrastructure (it sits with the integration tests because the renderer is test
 * code). A closed eyelid is skin; it must not take the colour of what lies above the lid (crease,
 * lashes, make-up). Copying that band as it was painted a dark patch over one package face's eyes
 * (sample6#3 in the evaluation's genuine set), which the face mesh read as a half-open eye: its
 * rendered blinks dropped the eye-aspect ratio 22-23 % where the blink check asks 25 %.
 */
import { describe, expect, it } from 'vitest';
import { IDX } from '../src/analysis/geometry.js';
import type { RgbImage } from '../src/analysis/media.js';
import { paintClosedLid } from './corpus/render.js';

const SKIN = [205, 160, 140];
const LID_MAKEUP = [70, 50, 45];
const SCLERA = [235, 235, 230];

/** An 80×60 picture: dark lid make-up above y = 24, an open eye (x 20–60) around y = 30, skin below. */
function eyeScene(): { img: RgbImage; pts: Float32Array; inside: (x: number, y: number) => boolean } {
  const w = 80,
    h = 60;
  const eye = IDX.rightEye;
  const pts = new Float32Array(478 * 3);
  const set = (i: number, x: number, y: number) => {
    pts[i * 3] = x;
    pts[i * 3 + 1] = y;
  };
  const upperY = (x: number) => 30 - 6 * Math.sin((Math.PI * (x - 20)) / 40);
  const lowerY = (x: number) => 30 + 4 * Math.sin((Math.PI * (x - 20)) / 40);
  set(eye.outer, 20, 30);
  set(eye.inner, 60, 30);
  eye.upper.forEach((i, k) => set(i, 20 + (40 * (k + 1)) / 8, upperY(20 + (40 * (k + 1)) / 8)));
  eye.lower.forEach((i, k) => set(i, 20 + (40 * (k + 1)) / 8, lowerY(20 + (40 * (k + 1)) / 8)));
  const inside = (x: number, y: number) => x > 22 && x < 58 && y > upperY(x) + 0.5 && y < lowerY(x) - 0.5;
  const img: RgbImage = { width: w, height: h, data: new Uint8Array(w * h * 3) };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const c = inside(x, y) ? SCLERA : y < 27 && x > 12 && x < 68 ? LID_MAKEUP : SKIN;
      img.data.set(c, (y * w + x) * 3);
    }
  return { img, pts, inside };
}

const meanInside = (img: RgbImage, inside: (x: number, y: number) => boolean) => {
  const s = [0, 0, 0];
  let n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (inside(x, y)) {
        for (let c = 0; c < 3; c++) s[c] += img.data[(y * img.width + x) * 3 + c];
        n++;
      }
  return s.map((v) => v / n);
};

describe('the renderer closes an eye with skin', () => {
  it('paints the closed lid in the colour of the skin below the eye, not of the make-up above it', () => {
    const { img, pts, inside } = eyeScene();
    paintClosedLid(img, pts, IDX.rightEye, 1);
    const m = meanInside(img, inside);
    // the opening is covered: skin within 15 % (the lid's own shading), nothing near the make-up
    for (let c = 0; c < 3; c++) {
      expect(Math.abs(m[c] - SKIN[c]) / SKIN[c], `channel ${c}: ${m.map((v) => v.toFixed(0)).join(',')}`).toBeLessThan(0.15);
      expect(m[c] - LID_MAKEUP[c]).toBeGreaterThan(60);
    }
  });

  it('leaves the eye open at f = 0 and covers it gradually as f grows', () => {
    const sclera = (f: number) => {
      const e = eyeScene();
      paintClosedLid(e.img, e.pts, IDX.rightEye, f);
      const m = meanInside(e.img, e.inside);
      return m.reduce((s, v, c) => s + Math.abs(v - SKIN[c]), 0); // distance from skin
    };
    const open = eyeScene();
    paintClosedLid(open.img, open.pts, IDX.rightEye, 0);
    expect(meanInside(open.img, open.inside)).toEqual(SCLERA);
    const [d0, d5, d1] = [sclera(0), sclera(0.5), sclera(1)];
    expect(d5).toBeLessThan(d0 - 5);
    expect(d1).toBeLessThan(d5 - 5);
  });
});
