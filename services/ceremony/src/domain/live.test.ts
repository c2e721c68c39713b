import { describe, expect, it } from 'vitest';
import { assessLive, MAX_LAG_MS, type LiveChunkMeta } from './live.js';
import { drawTimeline, segmentCount } from './timeline.js';

const t = drawTimeline(['turn_left', 'blink', 'smile']);
const n = segmentCount(t);
const seg = t.segment_ms;

/** A genuine stream: chunk k arrives latency ms after segment k ends; the page shows the reveal 40 ms later. */
function genuine(latency = 120): LiveChunkMeta[] {
  return Array.from({ length: n }, (_, k) => ({
    seq: k,
    arrival_ms: (k + 1) * seg + latency,
    shown: k === 0 ? [] : [[k, k * seg + latency + 40] as [number, number]],
  }));
}

describe('live assessment', () => {
  it('a stream that keeps pace and shows each segment after its reveal is live', () => {
    const a = assessLive(t, genuine(), t.total_ms / 1000 + 0.3);
    expect(a.detail).toMatch(/real time/);
    expect(a.assurance).toBe('live');
    expect(a.shown_ms[0]).toBe(0);
    expect(a.shown_ms).toHaveLength(n);
  });

  it('a stream that falls behind real time is only recorded', () => {
    const m = genuine();
    for (const x of m.slice(4)) x.arrival_ms += MAX_LAG_MS + 500;
    expect(assessLive(t, m, t.total_ms / 1000).assurance).toBe('recorded');
  });

  it('a segment claimed shown before it could have been revealed is only recorded', () => {
    const m = genuine();
    m[6]!.shown = [[6, 6 * seg - 600]];
    const a = assessLive(t, m, t.total_ms / 1000);
    expect(a.assurance).toBe('recorded');
    expect(a.detail).toMatch(/before it could have been revealed/);
  });

  it('video produced faster than real time and sent in a burst is only recorded', () => {
    // all chunks arrive within 3 s, carrying the whole timeline
    const m = genuine().map((x, k) => ({ ...x, arrival_ms: 1000 + k * 100, shown: x.shown }));
    const a = assessLive(t, m, t.total_ms / 1000);
    expect(a.assurance).toBe('recorded');
  });

  it('missing chunks or unreported segments are only recorded', () => {
    expect(assessLive(t, genuine().slice(0, n - 3), t.total_ms / 1000).assurance).toBe('recorded');
    const m = genuine();
    m[3]!.shown = [];
    expect(assessLive(t, m, t.total_ms / 1000).assurance).toBe('recorded');
  });

  it('a recording shorter than the timeline is only recorded', () => {
    expect(assessLive(t, genuine(), 5).assurance).toBe('recorded');
  });
});
