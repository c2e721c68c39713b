import { describe, expect, it } from 'vitest';
import {
  assessLive,
  chunkProblems,
  dueMs,
  FINAL_GRACE_MS,
  MAX_LAG_MS,
  MEDIA_AHEAD_MS,
  MEDIA_BEHIND_MS,
  refusal,
  SHOWN_LATE_MS,
  SHOWN_AFTER_REVEAL_MS,
  SHOWN_TOLERANCE_MS,
  type LiveChunkMeta,
} from './live.js';
import { drawTimeline, segmentCount } from './timeline.js';

const t = drawTimeline(['turn_left', 'blink', 'smile']);
const n = segmentCount(t);
const seg = t.segment_ms;
const FRAME = 67;

/**
 * A genuine stream: chunk k is cut at the end of segment k (its last frame a frame before) and
 * arrives latency ms later; the page shows each reveal 40 ms after the answer and reports it with
 * the next chunk it records; then one final flush.
 */
function genuine(latency = 120): LiveChunkMeta[] {
  const chunks: LiveChunkMeta[] = Array.from({ length: n }, (_, k) => ({
    seq: k,
    arrival_ms: (k + 1) * seg + latency,
    shown: k === 0 ? [] : [[k, k * seg + latency + 40] as [number, number]],
    media_end_ms: (k + 1) * seg - FRAME,
    frames: 15,
    backwards: 0,
  }));
  chunks.push({
    seq: n,
    arrival_ms: n * seg + 2 * latency + 60,
    shown: [],
    media_end_ms: n * seg + latency,
    frames: 2,
    backwards: 0,
  });
  return chunks;
}
const duration = t.total_ms / 1000 + 0.2;
/** The problems of chunk k of `m` (the rules evaluated when it arrived). */
const problemsOf = (m: LiveChunkMeta[], k: number) => chunkProblems(t, m.slice(0, k + 1)).map((p) => p.reason);

describe('live assessment', () => {
  it('a stream that keeps pace, each chunk carrying its segment, each segment shown after its reveal, is live', () => {
    const m = genuine();
    m.forEach((_, k) => expect(problemsOf(m, k)).toEqual([]));
    const a = assessLive(t, m, duration);
    expect(a.detail).toMatch(/real time/);
    expect(a.assurance).toBe('live');
    expect(a.shown_ms[0]).toBe(0);
    expect(a.shown_ms[5]).toBe(5 * seg + 160);
    expect(a.shown_ms).toHaveLength(n);
  });

  it('a chunk of the segments without a video frame is refused, header or padding alike; the final flush may carry none', () => {
    expect(refusal(t, 0, { frames: 0 })?.reason).toBe('no_media');
    expect(refusal(t, n - 1, { frames: 0 })?.reason).toBe('no_media');
    expect(refusal(t, n, { frames: 0 })).toBeNull();
    expect(refusal(t, 3, { frames: 1 })).toBeNull();
    expect(refusal(t, 3, { frames: 9, error: 'the recording is neither WebM nor MP4' })?.reason).toBe('unreadable');
  });

  it('a refused chunk ends the claim to live, even when the recording is later sent in full', () => {
    const m = genuine();
    m[0]!.refused = [{ reason: 'no_media', detail: 'chunk 4 carries no video frame' }];
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/chunk 4 carries no video frame/);
  });

  it('chunk k must carry media up to about the end of segment k', () => {
    const m = genuine();
    m[4]!.media_end_ms = 5 * seg - MEDIA_BEHIND_MS;
    expect(problemsOf(m, 4)).toEqual([]);
    m[4]!.media_end_ms = 5 * seg - MEDIA_BEHIND_MS - 1;
    expect(problemsOf(m, 4)).toEqual(['behind']);
    expect(assessLive(t, m, duration).assurance).toBe('recorded');
    // the final flush has no segment of its own
    const f = genuine();
    f[n]!.media_end_ms = n * seg - FRAME;
    expect(problemsOf(f, n)).toEqual([]);
  });

  it('media time may not run ahead of the time since the live start', () => {
    const m = genuine();
    m[2]!.media_end_ms = m[2]!.arrival_ms + MEDIA_AHEAD_MS;
    expect(problemsOf(m, 2)).toEqual([]);
    m[2]!.media_end_ms = m[2]!.arrival_ms + MEDIA_AHEAD_MS + 1;
    expect(problemsOf(m, 2)).toEqual(['ahead']);
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/ms of media .* after the live start/);
  });

  it('frames stamped back in time make the recording recorded', () => {
    const m = genuine();
    m[7]!.backwards = 1;
    expect(problemsOf(m, 7)).toEqual(['out_of_order']);
    expect(assessLive(t, m, duration).assurance).toBe('recorded');
  });

  it('each chunk has a deadline: its segment end + lag, and for the final flush the last segment end + lag + grace', () => {
    expect(dueMs(t, 3)).toBe(4 * seg + MAX_LAG_MS);
    expect(dueMs(t, n - 1)).toBe(n * seg + MAX_LAG_MS);
    expect(dueMs(t, n)).toBe(n * seg + MAX_LAG_MS + FINAL_GRACE_MS);
    expect(dueMs(t, n + 2)).toBe(dueMs(t, n));
    for (const k of [4, n - 1, n]) {
      const m = genuine();
      m[k]!.arrival_ms = dueMs(t, k);
      expect(problemsOf(m, k)).toEqual([]);
      m[k]!.arrival_ms = dueMs(t, k) + 1;
      expect(problemsOf(m, k)).toEqual(['late']);
      expect(assessLive(t, m, duration).assurance).toBe('recorded');
    }
  });

  it('a segment reported shown before its reveal (by media or by clock) is only recorded, and its time is not passed on', () => {
    const m = genuine();
    // revealed when chunk 5 arrived: media had reached 6 s − a frame by then
    const revealedAt = 6 * seg - FRAME;
    m[6]!.shown = [[6, revealedAt - SHOWN_TOLERANCE_MS]];
    expect(problemsOf(m, 6)).toEqual([]);
    m[6]!.shown = [[6, revealedAt - SHOWN_TOLERANCE_MS - 1]];
    expect(problemsOf(m, 6)).toEqual(['shown_early']);
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/before it could have been revealed/);
    expect(a.shown_ms[6]).toBe(6 * seg);
    expect(a.shown_ms[5]).toBe(5 * seg + 160);
  });

  it('the reveal time is bounded by the clock too: chunk 0 short of media, later chunks late', () => {
    const m = genuine(300);
    // chunk 0 carried 0.5 s of media and arrived at 1.3 s: the first frame was taken at 0.8 s at the
    // latest, so the reveal at chunk 5's arrival (6.3 s) was at media time 5.5 s at least
    m[0]!.media_end_ms = 500;
    m[5]!.media_end_ms = 5000;
    m[6]!.shown = [[6, 5500 - SHOWN_TOLERANCE_MS]];
    expect(problemsOf(m, 6)).toEqual([]);
    m[6]!.shown = [[6, 5500 - SHOWN_TOLERANCE_MS - 1]];
    expect(problemsOf(m, 6)).toEqual(['shown_early']);
  });

  it('a segment reported with the chunk of its reveal or earlier, or shown after the media received, is only recorded', () => {
    const early = genuine();
    early[4]!.shown.push([5, 5 * seg]);
    expect(problemsOf(early, 4)).toEqual(['shown_early']);
    const m = genuine();
    // The media bound is the tighter one when the report's chunk carries little media and its reveal came late.
    m[7]!.arrival_ms = 8 * seg + 1400;
    m[8]!.media_end_ms = 9 * seg - 500;
    const end = m[8]!.media_end_ms;
    m[8]!.shown = [[8, end + SHOWN_LATE_MS]];
    expect(problemsOf(m, 8)).toEqual([]);
    m[8]!.shown = [[8, end + SHOWN_LATE_MS + 1]];
    expect(problemsOf(m, 8)).toEqual(['shown_late']);
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.shown_ms[8]).toBe(8 * seg);
  });

  it('a segment reported shown long after its reveal was sent is only recorded (a puppet hiding its render delay)', () => {
    const m = genuine();
    // Segment 6 was revealed with the answer to chunk 5; the page may report it a round trip and a frame later.
    const latest = m[5]!.arrival_ms + MEDIA_AHEAD_MS + SHOWN_AFTER_REVEAL_MS;
    m[6]!.shown = [[6, latest]];
    expect(problemsOf(m, 6)).toEqual([]);
    m[6]!.shown = [[6, latest + 1]];
    expect(problemsOf(m, 6)).toEqual(['shown_late']);
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/after its reveal was sent/);
    expect(a.shown_ms[6]).toBe(6 * seg);
  });

  it('padding in a burst then the whole answer at the end is only recorded', () => {
    const m: LiveChunkMeta[] = Array.from({ length: n }, (_, k) => ({
      seq: k,
      arrival_ms: 1300 + k * 20,
      shown: k === 0 ? [] : [[k, k * seg] as [number, number]],
      media_end_ms: k === n - 1 ? t.total_ms : null,
      frames: k === n - 1 ? 300 : 0,
    }));
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/no video frame/);
    expect(a.shown_ms).toEqual(Array.from({ length: n }, (_, k) => k * seg));
  });

  it('video produced faster than real time and sent in a burst is only recorded', () => {
    const m = genuine().map((x, k) => ({ ...x, arrival_ms: 1000 + k * 100 }));
    const a = assessLive(t, m, duration);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/after the live start/);
  });

  it('missing chunks, unreported segments or segments out of order are only recorded', () => {
    expect(assessLive(t, genuine().slice(0, n - 3), duration).assurance).toBe('recorded');
    const m = genuine();
    m[3]!.shown = [];
    expect(assessLive(t, m, duration).detail).toMatch(/segment 3 was not reported shown/);
    const o = genuine();
    o[4]!.shown = [[4, 3 * seg + 60]];
    o[3]!.shown = [[3, 3 * seg + 200]];
    expect(assessLive(t, o, duration).assurance).toBe('recorded');
  });

  it('a recording shorter than the timeline, or longer than the stream took, is only recorded', () => {
    expect(assessLive(t, genuine(), 5).assurance).toBe('recorded');
    expect(assessLive(t, genuine(), t.total_ms / 1000 + 3).detail).toMatch(/streamed in/);
  });
});
