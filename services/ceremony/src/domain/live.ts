/**
 * The live ceremony: the page streams the recording in chunks of about one segment while it
 * records, and each next segment (prompt and screen colour) is revealed only when the previous
 * chunk has arrived. What that proves is judged here from the arrival times and the times the page
 * says it showed each segment:
 *
 * - media time starts after the live start was answered, and chunk 0 cannot arrive before the
 *   first segment of media exists, so segment k (revealed when chunk k−1 arrived, at A[k−1]) cannot
 *   be shown before media time A[k−1] − A[0] + segment;
 * - the stream keeps pace: chunk k arrives within MAX_LAG_MS of the end of segment k;
 * - the decoded recording is no longer than the time the stream took (it was not produced faster
 *   than real time and sent in bursts) and covers the whole timeline.
 *
 * A recording that satisfies all of this had each answer produced after its prompt was revealed,
 * in real time: assurance "live". Anything else is judged like a single upload ("recorded").
 */
import { segmentCount, type Timeline } from './timeline.js';

/** How far behind real time the stream may fall (ms). */
export const MAX_LAG_MS = 1500;
/** Clock and encoder slack when a shown time is compared with its reveal (ms). */
export const SHOWN_TOLERANCE_MS = 150;
/** Slack between the decoded duration and the stream's span (s). */
export const DURATION_TOLERANCE_S = 1.0;
/** Chunks beyond the segments (the recorder's last flush). */
export const EXTRA_CHUNKS = 3;
/** One chunk at most (a segment at the page's bitrate is about 200 KB). */
export const MAX_CHUNK_BYTES = 2 * 1024 * 1024;

export type Assurance = 'live' | 'recorded';

export type LiveChunkMeta = { seq: number; arrival_ms: number; shown: [number, number][] };

export type LiveAssessment = { assurance: Assurance; detail: string; shown_ms: number[]; arrival_ms: number[] };

/** Shown times per segment from the chunks' reports (the first report of a segment counts). */
export function shownTimes(t: Timeline, metas: readonly LiveChunkMeta[]): (number | null)[] {
  const out: (number | null)[] = Array.from({ length: segmentCount(t) }, (_, k) => (k === 0 ? 0 : null));
  for (const m of metas)
    for (const [seg, ms] of m.shown) if (seg > 0 && seg < out.length && out[seg] === null) out[seg] = Math.round(ms);
  return out;
}

export function assessLive(t: Timeline, metas: readonly LiveChunkMeta[], decodedSeconds: number): LiveAssessment {
  const n = segmentCount(t);
  const seg = t.segment_ms;
  const arrivals = [...metas].sort((a, b) => a.seq - b.seq).map((m) => Math.round(m.arrival_ms));
  const shown = shownTimes(t, metas);
  const problems: string[] = [];
  if (arrivals.length < n) problems.push(`${arrivals.length} chunks for ${n} segments`);
  for (let k = 0; k < Math.min(arrivals.length, n - 1); k++) {
    const due = (k + 1) * seg + MAX_LAG_MS;
    if (arrivals[k]! > due) {
      problems.push(`chunk ${k} arrived ${arrivals[k]! - due} ms behind real time`);
      break;
    }
  }
  for (let k = 1; k < n; k++) {
    const s = shown[k];
    if (s === null || s === undefined) {
      problems.push(`segment ${k} was not reported shown`);
      break;
    }
    const prev = shown[k - 1];
    if (prev !== null && prev !== undefined && s < prev) {
      problems.push(`segment ${k} reported shown before segment ${k - 1}`);
      break;
    }
    const revealedAt = arrivals[k - 1];
    if (revealedAt === undefined) break;
    const earliest = revealedAt - arrivals[0]! + seg - SHOWN_TOLERANCE_MS;
    if (s < earliest) {
      problems.push(`segment ${k} reported shown ${earliest - s} ms before it could have been revealed`);
      break;
    }
  }
  if (arrivals.length > 0) {
    const span = (arrivals.at(-1)! - arrivals[0]! + seg) / 1000;
    if (decodedSeconds > span + DURATION_TOLERANCE_S)
      problems.push(`${decodedSeconds.toFixed(1)} s of video streamed in ${span.toFixed(1)} s`);
  }
  if (decodedSeconds < t.total_ms / 1000 - DURATION_TOLERANCE_S)
    problems.push(`${decodedSeconds.toFixed(1)} s of video for a ${(t.total_ms / 1000).toFixed(0)} s timeline`);
  const shownMs = shown.map((s, k) => s ?? k * seg);
  return problems.length
    ? { assurance: 'recorded', detail: problems.join('; '), shown_ms: shownMs, arrival_ms: arrivals }
    : {
        assurance: 'live',
        detail: 'every segment revealed after the previous chunk arrived, in real time',
        shown_ms: shownMs,
        arrival_ms: arrivals,
      };
}
