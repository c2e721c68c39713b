import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { framePlan, lateDescriptions } from './frame-plan.js';
import { motionResidual } from './frame-ops.js';

const times = Array.from({ length: 120 }, (_, i) => i / 8); // 15 s at 8 fps
const at = (t: number) => Math.round(t * 8);

describe('framePlan: the models each frame needs', () => {
  it('describes every second frame and every frame of the last 1.5 s', () => {
    const { embed } = framePlan(times, { actions: ['turn_left'], windows: [[5, 7]] }, analysisConfig);
    expect(embed[0]).toBe(false);
    expect(embed[1]).toBe(true);
    expect(embed[2]).toBe(false);
    expect(embed[3]).toBe(true);
    expect(embed.slice(at(13.375))).toEqual(embed.slice(at(13.375)).map(() => true));
    expect(embed.filter(Boolean).length).toBeLessThan(times.length * 0.6);
  });

  it('describes, before the last seconds, only frames between two detector frames (tracked boxes: one crop)', () => {
    const { embed, detect } = framePlan(times, { actions: ['turn_left'], windows: [[5, 7]] }, analysisConfig);
    const before = times.findIndex((t) => t >= times[times.length - 1] - analysisConfig.finalFrame.lastSeconds);
    const described = embed.slice(0, before).flatMap((e, i) => (e ? [i] : []));
    expect(described.length).toBeGreaterThan(40);
    expect(described.some((i) => detect[i])).toBe(false);
    // the detector cadence is a multiple of the description's, so this holds for every frame
    expect(analysisConfig.sampling.detectEvery % analysisConfig.identity.embedEvery).toBe(0);
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

describe('the plan of a frame taken while the decode still runs (ended: false)', () => {
  const challenge = {
    actions: ['blink', 'turn_left', 'smile'],
    windows: [
      [4, 5.5],
      [7, 8.5],
      [10.5, 12],
    ] as [number, number][],
  };
  const fps = analysisConfig.sampling.fps;
  it("is the whole video's plan but for descriptions of the last 1.5 s, which the late pass adds", () => {
    for (const total of [1, 12, 13, 14, 40, 97, 120, 121, 240]) {
      const all = Array.from({ length: total }, (_, i) => i / fps);
      const whole = framePlan(all, challenge, analysisConfig);
      const lastStart = all[total - 1]! - analysisConfig.finalFrame.lastSeconds;
      // every frame i planned when `known` frames had arrived, for every moment it could have been taken
      for (let known = 1; known <= total; known++) {
        const part = framePlan(all.slice(0, known), challenge, analysisConfig, { ended: false });
        for (let i = 0; i < known; i++) {
          expect([part.iris[i], part.detect[i]]).toEqual([whole.iris[i], whole.detect[i]]);
          // never a description the whole video's plan does not make
          if (part.embed[i]) expect(whole.embed[i]).toBe(true);
        }
        // what is missing is exactly what the late pass makes, all of it in the last 1.5 s
        const described = whole.embed.map((_, i) => (i < known ? part.embed[i]! : whole.embed[i]!));
        const late = lateDescriptions(whole, described);
        expect(late.every((i) => all[i]! >= lastStart)).toBe(true);
        const after = whole.embed.map((_, i) => described[i] || late.includes(i));
        expect(after).toEqual(whole.embed);
      }
    }
  });

  it('a frame planned before the end was known is described late when it falls in the last 1.5 s', () => {
    const all = Array.from({ length: 120 }, (_, k) => k / fps);
    const i = 112; // even (described only as one of the last seconds' frames), 1 s before the end
    expect(framePlan(all.slice(0, 116), challenge, analysisConfig, { ended: false }).embed[i]).toBe(false);
    const whole = framePlan(all, challenge, analysisConfig);
    expect(whole.embed[i]).toBe(true);
    const described = whole.embed.map((e, k) => (k === i ? false : e));
    expect(lateDescriptions(whole, described)).toEqual([i]);
    // without `ended: false` a frame 1.5 s before the last one known would look like the end
    expect(framePlan(all.slice(0, 41), challenge, analysisConfig).embed[30]).toBe(true);
    expect(framePlan(all.slice(0, 41), challenge, analysisConfig, { ended: false }).embed[30]).toBe(false);
  });
});
