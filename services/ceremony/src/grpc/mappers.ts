import type { eventsV1, ceremonyV1 } from '@signet/proto';
import type { Reveal, Timeline } from '../domain/timeline.js';

export function timelineMessage(t: Timeline | undefined): eventsV1.Timeline | undefined {
  if (!t) return undefined;
  return {
    segmentMs: t.segment_ms,
    wordsStartMs: t.words_start_ms,
    wordsEndMs: t.words_end_ms,
    actions: t.actions.map((a) => ({ action: a.action, startMs: a.start_ms, endMs: a.end_ms })),
    colours: t.colours,
    totalMs: t.total_ms,
  };
}

export function revealMessage(r: Reveal): ceremonyV1.Reveal {
  return {
    segment: r.segment,
    colour: r.colour,
    prompt: r.prompt,
    words: r.words,
    action: r.action,
    actionNumber: r.action_number,
    actionCount: r.action_count,
  };
}
