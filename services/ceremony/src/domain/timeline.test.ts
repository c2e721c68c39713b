import { describe, expect, it } from 'vitest';
import { drawContent } from './challenge.js';
import { drawTimeline, LIGHT_PALETTE, revealOf, SEGMENT_MS, seededDraw, segmentCount } from './timeline.js';

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
});
