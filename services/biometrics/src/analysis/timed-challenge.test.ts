import { describe, expect, it } from 'vitest';
import { timedChallenge, WINDOW_SLACK } from './timed-challenge.js';

const t = {
  segmentMs: 1000,
  wordsStartMs: 1000,
  wordsEndMs: 5000,
  actions: [
    { action: 'turn_left', startMs: 6000, endMs: 8000 },
    { action: 'smile', startMs: 10000, endMs: 12000 },
  ],
  colours: Array.from({ length: 15 }, (_, k) => (k % 2 ? '#ff0000' : '#0000ff')),
  totalMs: 15000,
};

describe('timed challenge', () => {
  it('follows the schedule for an upload', () => {
    const c = timedChallenge(t, ['a', 'b', 'c', 'd']);
    expect(c.windows![0]).toEqual([6 - WINDOW_SLACK.before, 8 + WINDOW_SLACK.after]);
    expect(c.wordsWindow![0]).toBe(1);
    expect(c.light!.changes[3]).toBe(3);
    expect(c.light!.end).toBe(15);
    expect(c.strict).toBe(true);
  });

  it('follows the times the live page showed each segment', () => {
    const shown = Array.from({ length: 15 }, (_, k) => (k === 0 ? 0 : k * 1000 + 180));
    const c = timedChallenge(t, ['a', 'b', 'c', 'd'], shown);
    expect(c.windows![1]![0]).toBeCloseTo(10.18 - WINDOW_SLACK.before);
    expect(c.light!.changes[5]).toBeCloseTo(5.18);
  });

  it('ignores shown times that are not one per segment, in order', () => {
    const c = timedChallenge(t, [], [0, 2000, 1000]);
    expect(c.light!.changes[2]).toBe(2);
  });

  it("puts the flash segment's colours at their steps from its shown time, and marks them for the flash check", () => {
    const colours = [...t.colours];
    const flash = { segment: 6, stepMs: 250, colours: [colours[6]!, '#00ff00', '#ffff00', '#00ffff'] };
    const shown = Array.from({ length: 15 }, (_, k) => (k === 0 ? 0 : k * 1000 + 180));
    const c = timedChallenge({ ...t, flash }, [], shown);
    expect(c.light!.colours).toEqual([...colours.slice(0, 6), ...flash.colours, ...colours.slice(7)]);
    expect(c.light!.changes.slice(6, 11)).toEqual([6.18, 6.43, 6.68, 6.93, 7.18]);
    expect(c.light!.flash).toEqual({ first: 6, count: 4 });
    // the windows still follow the segments
    expect(c.windows![0]![0]).toBeCloseTo(6.18 - WINDOW_SLACK.before);
  });

  it('leaves out a flash the next segment was shown before (the page stops them), and ignores a flash that does not fit the timeline', () => {
    const flash = { segment: 6, stepMs: 250, colours: [t.colours[6]!, '#00ff00', '#ffff00', '#00ffff'] };
    const shown = Array.from({ length: 15 }, (_, k) => (k === 0 ? 0 : k <= 6 ? k * 1000 : k * 1000 - 400));
    const c = timedChallenge({ ...t, flash }, [], shown);
    expect(c.light!.flash).toEqual({ first: 6, count: 3 });
    expect(c.light!.changes.slice(6, 10)).toEqual([6, 6.25, 6.5, 6.6]);
    for (const bad of [
      { ...flash, segment: 40 },
      { ...flash, colours: ['#ffffff', ...flash.colours.slice(1)] },
      { ...flash, stepMs: 0 },
    ]) {
      const d = timedChallenge({ ...t, flash: bad }, []);
      expect(d.light!.colours).toEqual(t.colours);
      expect(d.light!.flash).toBeUndefined();
    }
  });
});
