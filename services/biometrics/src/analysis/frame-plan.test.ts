import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { framePlan } from './frame-plan.js';
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
