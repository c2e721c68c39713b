import { describe, expect, it } from 'vitest';
import { analysisConfig, type Action } from './config.js';
import { identityThreshold, poseBucket } from './identity.js';
import { detectEvents, matchSequence, mergeRuns, strayEvents, type ActionEvent } from './sequence.js';

const ev = (action: Action, start: number, end = start + 0.8): ActionEvent => ({ action, start, end, frames: 4, peak: 10 });

describe('a timed challenge: actions in their windows, the head neutral between', () => {
  const asked: Action[] = ['turn_left', 'smile', 'look_up'];
  const windows: [number, number][] = [
    [5.75, 7.6],
    [8.75, 10.6],
    [12.75, 14.6],
  ];

  it('passes the requested actions inside their windows, with spontaneous blinks anywhere', () => {
    const events = [ev('blink', 2), ev('turn_left', 6.2), ev('smile', 9.3), ev('blink', 11.5), ev('look_up', 13.1)];
    const m = matchSequence(asked, events, windows);
    expect(m.ok).toBe(true);
    expect(strayEvents(events, m.matched)).toEqual([]);
  });

  it('a recording that performs every action over and over leaves head movements outside the windows', () => {
    // all five actions every 1.5 s from 1 s: some land in the windows, the rest are strays
    const all: Action[] = ['turn_left', 'turn_right', 'blink', 'smile', 'look_up'];
    const events = Array.from({ length: 12 }, (_, k) => ev(all[k % 5]!, 1 + k * 1.5, 1 + k * 1.5 + 0.9));
    const m = matchSequence(asked, events, windows);
    const strays = strayEvents(events, m.matched);
    expect(strays.length).toBeGreaterThan(0);
    expect(strays.every((e) => ['turn_left', 'turn_right', 'look_up'].includes(e.action))).toBe(true);
  });

  it('the right actions in the right order but outside their windows fail', () => {
    const late = [ev('turn_left', 8.0), ev('smile', 11.0), ev('look_up', 15.0)];
    expect(matchSequence(asked, late, windows).ok).toBe(false);
    // without windows (an old capture) order alone would have passed
    expect(matchSequence(asked, late).ok).toBe(true);
  });

  it('a head turn the challenge did not ask for is a stray even when every requested action is in place', () => {
    const events = [ev('turn_left', 6.2), ev('turn_right', 8.0), ev('smile', 9.3), ev('look_up', 13.1)];
    const m = matchSequence(asked, events, windows);
    expect(m.ok).toBe(true);
    expect(strayEvents(events, m.matched).map((e) => e.action)).toEqual(['turn_right']);
  });
});

describe('pose-aware identity thresholds', () => {
  const cfg = analysisConfig;
  it('judges a frame by the pose it is seen at, from its change against the baseline', () => {
    expect(poseBucket({ left: 2, up: -1 }, cfg)).toBe('neutral');
    expect(poseBucket({ left: 14, up: 3 }, cfg)).toBe('turned');
    expect(poseBucket({ left: -14, up: 3 }, cfg)).toBe('turned');
    expect(poseBucket({ left: 4, up: 12 }, cfg)).toBe('up');
    expect(poseBucket(undefined, cfg)).toBe('neutral');
    expect(poseBucket({ left: null, up: null }, cfg)).toBe('neutral');
    for (const p of ['neutral', 'turned', 'up'] as const) expect(identityThreshold(p, cfg)).toBe(cfg.identity.poseMaxDistance[p]);
  });
});

describe('one action seen twice is one action', () => {
  const frame = (t: number, left: number) => ({ t, left, up: 0, earDrop: 0, widthIncrease: 0, liftIncrease: 0 });
  /** 8 fps yaw deltas: neutral, then the given degrees from 1 s on, then neutral. */
  const track = (degs: number[]) => [...[0, 0, 0, 0, 0, 0, 0, 0], ...degs, ...[0, 0, 0, 0]].map((d, i) => frame(i / 8, d));

  it('a turn whose yaw dips under the return angle for two frames is one turn, not a stray', () => {
    const events = detectEvents(track([12, 14, 3, 2, 13, 12, 10]), analysisConfig);
    expect(events.filter((e) => e.action === 'turn_left')).toHaveLength(1);
    const m = matchSequence(['turn_left'], events, [[0.9, 1.5]]);
    expect(m.ok).toBe(true);
    expect(strayEvents(events, m.matched)).toEqual([]);
  });

  it('two turns with a second of neutral between stay two, and the second is a stray', () => {
    const events = detectEvents(track([12, 14, 13, 0, 0, 0, 0, 0, 0, 0, 0, 13, 12, 11]), analysisConfig);
    expect(events.filter((e) => e.action === 'turn_left')).toHaveLength(2);
    const m = matchSequence(['turn_left'], events, [[0.9, 1.5]]);
    expect(strayEvents(events, m.matched)).toHaveLength(1);
  });

  it('the requested turn started twice inside its own window is one answer; another action there, or the same after it, is a stray', () => {
    // genuine_04_p4 of the evaluation: turn_left@9.6 and turn_left@10.4, window 8.8–11.6
    const asked2: Action[] = ['look_up', 'turn_left', 'blink'];
    const w2: [number, number][] = [
      [4.8, 7.6],
      [8.8, 11.6],
      [11.8, 14.6],
    ];
    const twice = [ev('look_up', 5.6), ev('turn_left', 9.6, 10.0), ev('turn_left', 10.4, 10.9), ev('blink', 12.8)];
    const m = matchSequence(asked2, twice, w2);
    expect(m.ok).toBe(true);
    expect(strayEvents(twice, m.matched, { actions: asked2, windows: w2 })).toEqual([]);
    // without the windows handed over, the old rule: the second start is a stray
    expect(strayEvents(twice, m.matched)).toHaveLength(1);
    // a turn the other way inside that window, or the same turn after the window, still is one
    const other = [ev('look_up', 5.6), ev('turn_left', 9.6, 10.0), ev('turn_right', 10.4, 10.9), ev('blink', 12.8)];
    expect(
      strayEvents(other, matchSequence(asked2, other, w2).matched, { actions: asked2, windows: w2 }).map((e) => e.action),
    ).toEqual(['turn_right']);
    const after = [ev('look_up', 5.6), ev('turn_left', 9.6, 10.0), ev('turn_left', 11.9, 12.3), ev('blink', 12.8)];
    expect(strayEvents(after, matchSequence(asked2, after, w2).matched, { actions: asked2, windows: w2 })).toHaveLength(1);
    // the look-up asked in the first window does not excuse a look-up inside the turn's window
    const up = [ev('look_up', 5.6), ev('turn_left', 9.6, 10.0), ev('look_up', 10.4, 10.9), ev('blink', 12.8)];
    expect(strayEvents(up, matchSequence(asked2, up, w2).matched, { actions: asked2, windows: w2 }).map((e) => e.action)).toEqual(
      ['look_up'],
    );
  });

  it('mergeRuns joins only runs within the gap', () => {
    const r = (start: number, end: number) => ({ start, end, frames: 2, peak: 10 });
    expect(mergeRuns([r(1, 1.25), r(1.5, 1.75), r(3, 3.25)], 0.4)).toEqual([
      { start: 1, end: 1.75, frames: 4, peak: 10 },
      { start: 3, end: 3.25, frames: 2, peak: 10 },
    ]);
  });
});
