/**
 * From the server's timeline (ms from the start of the recording, on the segment grid) to media
 * times the analysis can check: when each segment was actually shown (the live page reports it,
 * checked by the ceremony; an upload follows the schedule), the window each action must start in,
 * where the words are read, and the colour sequence the face must reflect (the flash segment's
 * colours at their steps from its shown time, as the page shows them).
 */
import type { AnalyzeInput } from './analyze.js';

type LightChallenge = NonNullable<AnalyzeInput['challenge']['light']>;

export type ServerTimeline = {
  segmentMs: number;
  wordsStartMs: number;
  wordsEndMs: number;
  actions: { action: string; startMs: number; endMs: number }[];
  colours: string[];
  totalMs: number;
  /** the flash segment: from its (shown) start, colours[i] for stepMs each; absent on older challenges */
  flash?: { segment: number; stepMs: number; colours: string[] };
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
    light: lightSchedule(t, changes, at(t.totalMs)),
  };
}

/**
 * The colours in the order shown and when each was shown: one per segment, the flash segment's at
 * their steps from its shown time. A step that would come at or after the next segment's shown
 * time is left out (the page stops the flashes when the next segment is revealed).
 */
function lightSchedule(t: ServerTimeline, changes: readonly number[], end: number): LightChallenge {
  const f = t.flash;
  const k = f?.segment ?? -1;
  if (!f || k < 0 || k >= changes.length || f.stepMs <= 0 || f.colours[0] !== t.colours[k])
    return { colours: [...t.colours], changes: [...changes], end };
  const next = changes[k + 1] ?? end;
  const steps = f.colours.map((c, i) => ({ c, at: changes[k]! + (i * f.stepMs) / 1000 })).filter((s) => s.at < next);
  return {
    colours: [...t.colours.slice(0, k), ...steps.map((s) => s.c), ...t.colours.slice(k + 1)],
    changes: [...changes.slice(0, k), ...steps.map((s) => s.at), ...changes.slice(k + 1)],
    end,
    flash: { first: k, count: steps.length },
  };
}
