import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { framePlan, planLookahead } from './frame-plan.js';
import { motionResidual } from './frame-ops.js';

const times = Array.from({ length: 120 }, (_, i) => i / 8); // 15 s at 8 fps
const at = (t: number) => Math.round(t * 8);

describe('framePlan: the models each frame needs', () => {
  it('describes every second frame and every frame of the last 1.5 s', () => {
    const { embed } = framePlan(times, { actions: ['turn_left'], windows: [[5, 7]] }, analysisConfig);
    expect(embed[0]).toBe(true);
    expect(embed[1]).toBe(false);
    expect(embed[2]).toBe(true);
    expect(embed.slice(at(13.375))).toEqual(embed.slice(at(13.375)).map(() => true));
    expect(embed.filter(Boolean).length).toBeLessThan(times.length * 0.6);
  });

  it('refines the eyes on the baseline and around each blink window only', () => {
    const { iris } = framePlan(
      times,
      {
        actions: ['turn_left', 'blink'],
        windows: [
          [5, 7],
          [9, 11],
        ],
      },
      analysisConfig,
    );
    expect(iris[at(0.5)]).toBe(true);
    expect(iris[at(6)]).toBe(false);
    expect(iris[at(8.75)]).toBe(true);
    expect(iris[at(11.75)]).toBe(true);
    expect(iris[at(12.5)]).toBe(false);
  });

  it('no blink asked: no iris at all; no timeline: the iris on every frame', () => {
    expect(
      framePlan(
        times,
        {
          actions: ['turn_left', 'smile'],
          windows: [
            [5, 7],
            [9, 11],
          ],
        },
        analysisConfig,
      ).iris.some(Boolean),
    ).toBe(false);
    expect(framePlan(times, { actions: ['turn_left', 'blink'] }, analysisConfig).iris.every(Boolean)).toBe(true);
  });

  it('with the plan off, every model on every frame (the benchmark baseline)', () => {
    const off = { ...analysisConfig, sampling: { ...analysisConfig.sampling, plan: false } };
    const p = framePlan(
      times,
      {
        actions: ['turn_left', 'smile'],
        windows: [
          [5, 7],
          [9, 11],
        ],
      },
      off,
    );
    expect(p.embed.every(Boolean) && p.iris.every(Boolean) && p.detect.every(Boolean)).toBe(true);
  });

  it('runs the face detector on the first and every detectEvery-th frame, with or without a timeline', () => {
    const every = analysisConfig.sampling.detectEvery;
    expect(every).toBeGreaterThan(1);
    for (const windows of [[[5, 7]] as [number, number][], undefined]) {
      const { detect } = framePlan(times, { actions: ['turn_left'], windows }, analysisConfig);
      expect(detect[0]).toBe(true);
      expect(detect.filter(Boolean).length).toBe(Math.ceil(times.length / every));
      // never more than detectEvery - 1 tracked frames in a row
      expect(detect.join('').includes(Array(every).fill('false').join(''))).toBe(false);
    }
    const one = { ...analysisConfig, sampling: { ...analysisConfig.sampling, detectEvery: 1 } };
    expect(framePlan(times, { actions: ['turn_left'] }, one).detect.every(Boolean)).toBe(true);
  });
});

describe('motionResidual: motion within frames meshed alike', () => {
  const mesh = (dx: number) =>
    Array.from({ length: 468 }, (_, k) => [k % 20, Math.floor(k / 20) + (k === 5 ? dx : 0), 0] as [number, number, number]);
  const face = (dx: number) => [
    { box: [0, 0, 10, 10] as [number, number, number, number], mesh: mesh(dx), yawDeg: 0, pitchDeg: 0 },
  ];

  it('counts motion in the smaller group too, and never compares a refined mesh with an unrefined one', () => {
    // frames 0-5 refined (baseline, blinks), still; frames 6-7 unrefined, moving
    const perFrame = [0, 0, 0, 0, 0, 0, 0, 3].map(face);
    const iris = [true, true, true, true, true, true, false, false];
    expect(motionResidual(perFrame, [0, 1, 2, 3, 4, 5, 6, 7], iris)).toBeGreaterThan(0.005);
    // a still face whose meshes differ only by the refinement: no motion
    const still = [0, 0, 0, 0, 0, 0, 0, 0].map(face);
    expect(motionResidual(still, [0, 1, 2, 3, 4, 5, 6, 7], iris)).toBe(0);
  });
});

describe('planLookahead: the plan of a frame taken while the decode still runs', () => {
  const challenge = {
    actions: ['blink', 'turn_left', 'smile'],
    windows: [
      [4, 5.5],
      [7, 8.5],
      [10.5, 12],
    ] as [number, number][],
  };
  it('is, for every frame with that many frames after it, the plan of the whole video', () => {
    const ahead = planLookahead(analysisConfig);
    expect(ahead).toBe(13); // 1.5 s at 8 fps, and one more
    for (const total of [1, 12, 13, 14, 40, 97, 120, 121, 240]) {
      const all = Array.from({ length: total }, (_, i) => i / analysisConfig.sampling.fps);
      const whole = framePlan(all, challenge, analysisConfig);
      for (let known = 1; known <= total; known++) {
        const part = framePlan(all.slice(0, known), challenge, analysisConfig);
        for (let i = 0; i + ahead < known; i++) {
          expect([part.embed[i], part.iris[i], part.detect[i]]).toEqual([whole.embed[i], whole.iris[i], whole.detect[i]]);
        }
      }
    }
  });

  it('would not be with one frame fewer: a frame 1.5 s before the frames known so far looks like the end', () => {
    const ahead = planLookahead(analysisConfig);
    const all = Array.from({ length: 60 }, (_, k) => k / 8);
    const i = 29; // an odd frame far from the end: not described in the whole video's plan
    expect(framePlan(all, challenge, analysisConfig).embed[i]).toBe(false);
    // ahead - 1 frames after it: it sits 1.5 s before the last known frame, so in the "last 1.5 s"
    expect(framePlan(all.slice(0, i + ahead), challenge, analysisConfig).embed[i]).toBe(true);
    expect(framePlan(all.slice(0, i + ahead + 1), challenge, analysisConfig).embed[i]).toBe(false);
  });
});
