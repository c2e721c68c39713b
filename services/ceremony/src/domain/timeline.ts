/**
 * The timeline of a challenge: when the signer reads the words, when each action must start, and
 * the screen colour of every segment of the recording. Drawn by the server with the challenge, so
 * a recording made before it (or without seeing it) cannot follow it: the actions must start
 * inside their windows with the head neutral in between, and the light reflected by the face must
 * follow the colours.
 */
import { createHmac, randomInt } from 'node:crypto';
import type { Action } from './challenge.js';

/** One segment of the recording: the unit of the light sequence and of the live reveal. */
export const SEGMENT_MS = 1000;
/** Neutral segments before the words (the signer's baseline for pose and skin colour). */
export const BASELINE_SEGMENTS = 1;
/** Segments the words are shown for. */
export const WORDS_SEGMENTS = 4;
/** Segments each action's window lasts: the action must start inside it. */
export const ACTION_SEGMENTS = 2;
/** Neutral segments after each action (randomised between these bounds). */
export const GAP_SEGMENTS = [1, 2] as const;
/**
 * Screen colours: six saturated hues around the colour wheel, the palette whose reflections
 * measured furthest apart in skin chromaticity (0.05 % of wrong sequences accepted against 0.24 %
 * for four colours; docs/decisions.md "Light challenge"). The biometrics light check draws its null
 * sequences from the same list (services/biometrics/src/analysis/light.ts); consecutive segments
 * never repeat a colour.
 */
export const LIGHT_PALETTE = ['#ff0000', '#ffff00', '#00ff00', '#00ffff', '#0000ff', '#ff00ff'] as const;

export type ActionWindow = { action: Action; start_ms: number; end_ms: number };
export type Timeline = {
  segment_ms: number;
  words_start_ms: number;
  words_end_ms: number;
  actions: ActionWindow[];
  colours: string[];
  total_ms: number;
};

/** A source of uniform integers in [0, n). */
export type Draw = (n: number) => number;

export const cryptoDraw: Draw = (n) => randomInt(n);

/**
 * A deterministic draw for tests only (CHALLENGE_TEST_SEED): HMAC-SHA256(seed, label | counter)
 * read 32 bits at a time, so a test can pre-render a camera feed for a challenge it has not seen.
 */
export function seededDraw(seed: string, label: string): Draw {
  let counter = 0;
  let pool: Buffer = Buffer.alloc(0);
  return (n) => {
    if (pool.length < 4) {
      pool = createHmac('sha256', seed).update(`${label}|${counter++}`).digest();
    }
    const x = pool.readUInt32BE(0);
    pool = pool.subarray(4);
    return x % n;
  };
}

/**
 * Baseline, words, a neutral gap of 0–1 extra segment, then each action in its window followed by
 * 1–2 neutral segments, then one segment to hold still for the final frame. About 16–19 s.
 */
export function drawTimeline(actions: readonly Action[], draw: Draw = cryptoDraw): Timeline {
  const seg = SEGMENT_MS;
  const wordsStart = BASELINE_SEGMENTS;
  const wordsEnd = wordsStart + WORDS_SEGMENTS;
  let at = wordsEnd + draw(2);
  const windows: ActionWindow[] = [];
  for (const action of actions) {
    windows.push({ action, start_ms: at * seg, end_ms: (at + ACTION_SEGMENTS) * seg });
    at += ACTION_SEGMENTS + GAP_SEGMENTS[0] + draw(GAP_SEGMENTS[1] - GAP_SEGMENTS[0] + 1);
  }
  const segments = at + 1;
  const colours: string[] = [];
  for (let k = 0; k < segments; k++) {
    const prev = colours.at(-1);
    const options = LIGHT_PALETTE.filter((c) => c !== prev);
    colours.push(options[draw(options.length)]!);
  }
  return {
    segment_ms: seg,
    words_start_ms: wordsStart * seg,
    words_end_ms: wordsEnd * seg,
    actions: windows,
    colours,
    total_ms: segments * seg,
  };
}

export const segmentCount = (t: Timeline) => Math.round(t.total_ms / t.segment_ms);

export type Reveal = {
  segment: number;
  colour: string;
  prompt: 'neutral' | 'words' | 'action' | 'hold';
  words: string[];
  action: string;
  action_number: number;
  action_count: number;
};

/** What the page shows during segment k. */
export function revealOf(t: Timeline, words: readonly string[], k: number): Reveal {
  const start = k * t.segment_ms;
  const base: Reveal = {
    segment: k,
    colour: t.colours[k] ?? '#ffffff',
    prompt: 'neutral',
    words: [],
    action: '',
    action_number: 0,
    action_count: t.actions.length,
  };
  if (k === segmentCount(t) - 1) return { ...base, prompt: 'hold' };
  if (start >= t.words_start_ms && start < t.words_end_ms) return { ...base, prompt: 'words', words: [...words] };
  const i = t.actions.findIndex((w) => start >= w.start_ms && start < w.end_ms);
  if (i >= 0) return { ...base, prompt: 'action', action: t.actions[i]!.action, action_number: i + 1 };
  return base;
}
