import { describe, expect, it } from 'vitest';
import { drawContent } from './challenge.js';
import {
  drawTimeline,
  FLASH_STEP_MS,
  FLASH_STEPS,
  LIGHT_PALETTE,
  lightSteps,
  revealOf,
  SEGMENT_MS,
  seededDraw,
  segmentCount,
  type Timeline,
} from './timeline.js';

describe('challenge timeline', () => {
  it('puts the words after a neutral baseline and each action in its own window with neutral segments between', () => {
    for (let i = 0; i < 500; i++) {
      const t = drawTimeline(['turn_left', 'smile', 'look_up']);
      expect(t.words_start_ms).toBeGreaterThanOrEqual(SEGMENT_MS);
      expect(t.words_end_ms - t.words_start_ms).toBe(4 * SEGMENT_MS);
      expect(t.actions[0]!.start_ms).toBeGreaterThanOrEqual(t.words_end_ms);
      for (let k = 1; k < t.actions.length; k++)
        expect(t.actions[k]!.start_ms - t.actions[k - 1]!.end_ms).toBeGreaterThanOrEqual(SEGMENT_MS);
      expect(t.total_ms - t.actions.at(-1)!.end_ms).toBeGreaterThanOrEqual(2 * SEGMENT_MS);
      expect(t.colours).toHaveLength(segmentCount(t));
      for (let k = 1; k < t.colours.length; k++) expect(t.colours[k]).not.toBe(t.colours[k - 1]);
      for (const c of t.colours) expect(LIGHT_PALETTE).toContain(c);
      expect(t.total_ms).toBeLessThanOrEqual(20_000);
    }
  });

  it('randomises the action starts and the colours (no two draws alike)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const t = drawTimeline(['blink', 'turn_right', 'smile']);
      seen.add(JSON.stringify([t.actions.map((a) => a.start_ms), t.colours]));
    }
    expect(seen.size).toBe(200);
    const starts = new Set<number>();
    for (let i = 0; i < 200; i++) starts.add(drawTimeline(['blink', 'turn_right', 'smile']).actions[2]!.start_ms);
    expect(starts.size).toBeGreaterThan(2);
  });

  it('reveals per segment: neutral, words, each action in its window, and a final hold', () => {
    const t = drawTimeline(['turn_left', 'blink', 'smile']);
    const words = ['a', 'b', 'c', 'd'];
    const n = segmentCount(t);
    const r = Array.from({ length: n }, (_, k) => revealOf(t, words, k));
    expect(r[0]!.prompt).toBe('neutral');
    expect(r[1]!.prompt).toBe('words');
    expect(r[1]!.words).toEqual(words);
    expect(r.at(-1)!.prompt).toBe('hold');
    for (const [i, w] of t.actions.entries()) {
      const k = w.start_ms / SEGMENT_MS;
      expect(r[k]).toMatchObject({ prompt: 'action', action: w.action, action_number: i + 1, action_count: 3 });
      expect(r[k - 1]!.prompt === 'action' && r[k - 1]!.action_number === i + 1).toBe(false);
    }
    // the words never leak into a non-words segment
    for (const x of r) if (x.prompt !== 'words') expect(x.words).toEqual([]);
  });

  it('a test seed makes the draw reproducible, a different label changes it', () => {
    const a = drawContent(seededDraw('seed', '1:0|1|0'));
    const b = drawContent(seededDraw('seed', '1:0|1|0'));
    const c = drawContent(seededDraw('seed', '1:0|1|1'));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('puts short flashes in one neutral segment after the words: four colours, none repeated in a row, 4 Hz', () => {
    const segments = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const t = drawTimeline(['turn_left', 'smile', 'look_up']);
      const f = t.flash!;
      segments.add(f.segment);
      expect(f.step_ms).toBe(FLASH_STEP_MS);
      expect(f.colours).toHaveLength(FLASH_STEPS);
      expect(f.step_ms * f.colours.length).toBeLessThanOrEqual(t.segment_ms);
      expect(f.colours[0]).toBe(t.colours[f.segment]);
      const start = f.segment * t.segment_ms;
      expect(start).toBeGreaterThanOrEqual(t.words_end_ms);
      expect(f.segment).toBeLessThan(segmentCount(t) - 1);
      for (const w of t.actions) expect(start >= w.start_ms && start < w.end_ms).toBe(false);
      // every colour change on the screen, flashes included, changes the colour; at most five changes
      // in any second (WCAG 2.3.1: three flashes, six changes)
      const steps = lightSteps(t);
      for (let k = 1; k < steps.length; k++) expect(steps[k]!.colour).not.toBe(steps[k - 1]!.colour);
      for (const s of steps) expect(LIGHT_PALETTE).toContain(s.colour);
      for (const s of steps)
        expect(steps.filter((x) => x.start_ms >= s.start_ms && x.start_ms < s.start_ms + 1000).length).toBeLessThanOrEqual(5);
    }
    expect(segments.size).toBeGreaterThan(3);
  });

  it('reveals the flashes only with their segment', () => {
    const t = drawTimeline(['blink', 'turn_right', 'smile']);
    const r = Array.from({ length: segmentCount(t) }, (_, k) => revealOf(t, [], k));
    for (const x of r)
      if (x.segment === t.flash!.segment) expect(x).toMatchObject({ flashes: t.flash!.colours, flash_ms: FLASH_STEP_MS });
      else expect(x).toMatchObject({ flashes: [], flash_ms: 0 });
  });

  it('draws the flashes after everything else: a seeded draw keeps its words, actions, windows and colours', () => {
    const log: number[] = [];
    const d = seededDraw('seed', '1:0|1|0');
    const a = drawContent((n) => {
      const x = d(n);
      log.push(x);
      return x;
    });
    // the same draws up to the flashes (the segment and three colours), anything after them
    let i = 0;
    const b = drawContent((n) => (i < log.length - FLASH_STEPS ? log[i++]! : (i++, n - 1)));
    expect(b.words).toEqual(a.words);
    expect({ ...b.timeline, flash: undefined }).toEqual({ ...a.timeline, flash: undefined });
    expect(b.timeline.flash).not.toEqual(a.timeline.flash);
    const { flash: _, ...rest } = a.timeline;
    // and an older challenge without flashes still reveals and lists its light
    const old: Timeline = rest;
    expect(lightSteps(old)).toHaveLength(old.colours.length);
    expect(revealOf(old, [], 3)).toMatchObject({ flashes: [], flash_ms: 0 });
  });
});
