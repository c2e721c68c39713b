import type { eventsV1 } from '@signet/proto';
import type { Timeline } from '../domain/timeline.js';

/**
 * The Timeline message (proto/signet/events/v1), which both the Challenge answer (grpc/) and the
 * CaptureSubmitted event (events/) carry: shared here so neither transport imports the other.
 */
export function timelineMessage(t: Timeline | undefined): eventsV1.Timeline | undefined {
  if (!t) return undefined;
  return {
    segmentMs: t.segment_ms,
    wordsStartMs: t.words_start_ms,
    wordsEndMs: t.words_end_ms,
    actions: t.actions.map((a) => ({ action: a.action, startMs: a.start_ms, endMs: a.end_ms })),
    colours: t.colours,
    totalMs: t.total_ms,
    flash: t.flash ? { segment: t.flash.segment, stepMs: t.flash.step_ms, colours: t.flash.colours } : undefined,
  };
}
