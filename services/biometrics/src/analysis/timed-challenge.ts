/**
 * From the server's timeline (ms from the start of the recording, on the segment grid) to media
 * times the analysis can check: when each segment was actually shown (the live page reports it,
 * checked by the ceremony; an upload follows the schedule), the window each action must start in,
 * where the words are read, and the colour sequence the face must reflect.
 */
import type { AnalyzeInput } from './analyze.js';

export type ServerTimeline = {
  segmentMs: number;
  wordsStartMs: number;
  wordsEndMs: number;
  actions: { action: string; startMs: number; endMs: number }[];
  colours: string[];
  totalMs: number;
};

/** Detection jitter (half a frame at 8 fps) before a window opens, and a late start after it closes (s). */
export const WINDOW_SLACK = { before: 0.25, after: 0.6 } as const;
/** The last words may still be heard shortly after the prompt goes (s). */
export const WORDS_SLACK_AFTER = 0.5;

export function timedChallenge(
  t: ServerTimeline,
  words: readonly string[],
  shownMs?: readonly number[],
): Omit<AnalyzeInput['challenge'], 'actions'> {
  const seg = t.segmentMs / 1000;
  const n = Math.max(1, Math.round(t.totalMs / t.segmentMs));
  const usable =
    shownMs && shownMs.length === n && shownMs.every((x, k) => Number.isFinite(x) && (k === 0 || x >= shownMs[k - 1]!));
  const changes = Array.from({ length: n }, (_, k) => (usable ? shownMs[k]! / 1000 : k * seg));
  const at = (ms: number) => {
    const k = Math.round(ms / t.segmentMs);
    return k < n ? changes[k]! : changes[n - 1]! + seg;
  };
  return {
    windows: t.actions.map((a) => [Math.max(0, at(a.startMs) - WINDOW_SLACK.before), at(a.endMs) + WINDOW_SLACK.after]),
    words: [...words],
    wordsWindow: [at(t.wordsStartMs), at(t.wordsEndMs) + WORDS_SLACK_AFTER],
    readSeconds: at(t.wordsEndMs),
    strict: true,
    light: { colours: [...t.colours], changes, end: at(t.totalMs) },
  };
}
