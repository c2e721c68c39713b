import { describe, expect, it } from 'vitest';
import { analysisConfig } from './config.js';
import { framePlan } from './frame-plan.js';

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
    expect(p.embed.every(Boolean) && p.iris.every(Boolean)).toBe(true);
  });
});
