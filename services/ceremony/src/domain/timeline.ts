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

/**
 * Short flashes: one neutral segment of the timeline shows FLASH_STEPS colours of FLASH_STEP_MS
 * each (4 Hz) instead of one, so the reflection must appear in the right frames, not just follow
 * the once-a-second colours. 4 Hz keeps the segment at five colour changes in any second (its own
 * four and the next segment's), under the six of WCAG 2.3.1's three flashes a second; 5 Hz would
 * reach six.
 */
export const FLASH_STEP_MS = 250;
export const FLASH_STEPS = 4;

export type ActionWindow = { action: Action; start_ms: number; end_ms: number };
/** The flash segment: from its start, colours[i] for step_ms each (colours[0] is colours[segment]). */
export type Flash = { segment: number; step_ms: number; colours: string[] };
export type Timeline = {
  segment_ms: number;
  words_start_ms: number;
  words_end_ms: number;
  actions: ActionWindow[];
  colours: string[];
  total_ms: number;
  /** absent on challenges drawn before the flashes */
  flash?: Flash;
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
 * 1–2 neutral segments, then one segment to hold still for the final frame. About 16–19 s. One of
 * the neutral segments after the words is the flash segment. The flashes are drawn last, so the
 * rest of a seeded draw is what it was before them (pre-rendered test feeds keep their timeline).
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
  const timeline: Timeline = {
    segment_ms: seg,
    words_start_ms: wordsStart * seg,
    words_end_ms: wordsEnd * seg,
    actions: windows,
    colours,
    total_ms: segments * seg,
  };
  const flash = drawFlash(timeline, draw);
  return flash ? { ...timeline, flash } : timeline;
}

/**
 * The flash segment, among the neutral segments after the words (never the baseline or the final
 * hold: the head is still there and nothing else is read), and its colours: the segment's own colour
 * first, then FLASH_STEPS − 1 more, none repeating the one before, the last not the next segment's.
 */
export function drawFlash(t: Omit<Timeline, 'flash'>, draw: Draw): Flash | undefined {
  const n = segmentCount(t);
  const neutral: number[] = [];
  for (let k = t.words_end_ms / t.segment_ms; k < n - 1; k++) {
    const start = k * t.segment_ms;
    if (!t.actions.some((w) => start >= w.start_ms && start < w.end_ms)) neutral.push(k);
  }
  if (neutral.length === 0) return undefined;
  const segment = neutral[draw(neutral.length)]!;
  const colours = [t.colours[segment]!];
  for (let i = 1; i < FLASH_STEPS; i++) {
    const prev = colours.at(-1);
    const next = i === FLASH_STEPS - 1 ? t.colours[segment + 1] : undefined;
    const options = LIGHT_PALETTE.filter((c) => c !== prev && c !== next);
    colours.push(options[draw(options.length)]!);
  }
  return { segment, step_ms: FLASH_STEP_MS, colours };
}

/**
 * Every colour the screen shows, in order, with its start (ms on the schedule): one per segment,
 * and the flash segment's colours at their steps.
 */
export function lightSteps(t: Timeline): { colour: string; start_ms: number }[] {
  return t.colours.flatMap((colour, k) =>
    t.flash && t.flash.segment === k
      ? t.flash.colours.map((c, i) => ({ colour: c, start_ms: k * t.segment_ms + i * t.flash!.step_ms }))
      : [{ colour, start_ms: k * t.segment_ms }],
  );
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
  /** on the flash segment: the colours to show from its start, flash_ms each (colours[0] is `colour`) */
  flashes: string[];
  flash_ms: number;
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
    flashes: t.flash?.segment === k ? [...t.flash.colours] : [],
    flash_ms: t.flash?.segment === k ? t.flash.step_ms : 0,
  };
  if (k === segmentCount(t) - 1) return { ...base, prompt: 'hold' };
  if (start >= t.words_start_ms && start < t.words_end_ms) return { ...base, prompt: 'words', words: [...words] };
  const i = t.actions.findIndex((w) => start >= w.start_ms && start < w.end_ms);
  if (i >= 0) return { ...base, prompt: 'action', action: t.actions[i]!.action, action_number: i + 1 };
  return base;
}
