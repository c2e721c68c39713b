/**
 * The live ceremony: the page streams the recording in chunks of about one segment while it
 * records, and each next segment (prompt and screen colour) is revealed only when the previous
 * chunk has arrived. Each chunk is demuxed as it arrives (media/chunk-demux.ts): what it proves is
 * judged from the media times it carries, its arrival time and the times the page says it showed
 * each segment. Media time is counted from the recording's first video frame.
 *
 * - a chunk of the segments carries video frames (a header or padding alone is refused);
 * - chunk k carries media up to about the end of segment k (MEDIA_BEHIND_MS), so the media of
 *   segment k existed when segment k+1 was revealed;
 * - media time never runs ahead of the time elapsed since the live start (MEDIA_AHEAD_MS), nor
 *   goes back (a frame stamped earlier than one already received);
 * - chunk k arrives within MAX_LAG_MS of the end of segment k; the last chunk and the recorder's
 *   final flush within MAX_LAG_MS + FINAL_GRACE_MS of the last segment's end;
 * - a segment is reported shown after it could have been revealed (no earlier than the media
 *   received by its reveal, nor than the media time of the reveal's arrival), no later than the
 *   media received with the report, and no later than SHOWN_AFTER_REVEAL_MS after the reveal was
 *   sent (media time never runs ahead of the time since the live start);
 * - the decoded recording is no longer than the time the stream took and covers the timeline.
 *
 * A recording that satisfies all of this had each answer produced after its prompt was revealed,
 * in real time: assurance "live". Anything else is judged like a single upload ("recorded"), and
 * the shown times that disagree with the arrivals are replaced by the schedule before the analysis
 * gets them.
 */
import { segmentCount, type Timeline } from './timeline.js';

/** How far behind real time the stream may fall (ms). */
export const MAX_LAG_MS = 1500;
/** After the last segment, the recorder's final flush (sent once the last chunk is answered) (ms). */
export const FINAL_GRACE_MS = 1000;
/**
 * How far short of its segment's end a chunk's media may stop (ms): the recorder's first frame comes
 * after its start, and a busy device's encoder falls behind (Chromium on a loaded machine: 730 ms).
 * Chunk k must still carry media into segment k, and segment k+1 is revealed only when it arrives.
 */
export const MEDIA_BEHIND_MS = 1000;
/** How far media time may run ahead of the time since the live start (clock and timestamp jitter) (ms). */
export const MEDIA_AHEAD_MS = 300;
/** Clock and encoder slack when a shown time is compared with its reveal (ms). */
export const SHOWN_TOLERANCE_MS = 150;
/** How far a shown time may pass the media received with its report (the page's clock starts before the first frame, the encoder lags) (ms). */
export const SHOWN_LATE_MS = 1000;
/**
 * How long after the server sent a reveal (with its answer to the chunk before) the page may say it
 * showed it: the answer's way back and a frame or two of rendering. A later report would let a puppet
 * move the times the light and flash checks are judged against behind its own render delay (ms).
 */
export const SHOWN_AFTER_REVEAL_MS = 800;
/** Slack between the decoded duration and the stream's span (s). */
export const DURATION_TOLERANCE_S = 1.0;
/** Chunks beyond the segments (the recorder's last flush). */
export const EXTRA_CHUNKS = 3;
/** One chunk at most (a segment at the page's bitrate is about 200 KB). */
export const MAX_CHUNK_BYTES = 2 * 1024 * 1024;

export type Assurance = 'live' | 'recorded';

/** Why a chunk was refused or made its recording "recorded" (the metric's `reason` label). */
export const LIVE_REASONS = [
  'unreadable',
  'no_media',
  'behind',
  'ahead',
  'out_of_order',
  'late',
  'shown_early',
  'shown_late',
] as const;
export type LiveReason = (typeof LIVE_REASONS)[number];
export type LiveProblem = { reason: LiveReason; detail: string; segment?: number };

export type LiveChunkMeta = {
  seq: number;
  arrival_ms: number;
  shown: [number, number][];
  /** Start of the latest video frame received with this chunk and before, ms from the first frame. */
  media_end_ms?: number | null;
  /** Video frames in this chunk, and those stamped earlier than a frame already received. */
  frames?: number;
  backwards?: number;
  /** Chunks refused before this one was stored (they end "live"). */
  refused?: LiveProblem[];
};

export type LiveAssessment = { assurance: Assurance; detail: string; shown_ms: number[]; arrival_ms: number[] };

/** What the demuxer found in a chunk (media/chunk-demux.ts). */
export type ChunkMediaSummary = { frames: number; error?: string };

/** A chunk refused outright: unreadable, or a chunk of the segments without a video frame. */
export function refusal(t: Timeline, seq: number, media: ChunkMediaSummary): LiveProblem | null {
  if (media.error) return { reason: 'unreadable', detail: `chunk ${seq}: ${media.error}` };
  if (media.frames === 0 && seq < segmentCount(t))
    return {
      reason: 'no_media',
      detail: `chunk ${seq} carries no video frame: each chunk must carry the recording of its segment`,
    };
  return null;
}

/** The deadline of chunk `seq` (ms after the live start). */
export function dueMs(t: Timeline, seq: number): number {
  const n = segmentCount(t);
  return seq < n ? (seq + 1) * t.segment_ms + MAX_LAG_MS : n * t.segment_ms + MAX_LAG_MS + FINAL_GRACE_MS;
}

/** The rules about the latest chunk of `metas` (in order from seq 0), given the ones before it. */
export function chunkProblems(t: Timeline, metas: readonly LiveChunkMeta[]): LiveProblem[] {
  const m = metas.at(-1)!;
  const k = m.seq;
  const out: LiveProblem[] = [];
  const end = m.media_end_ms ?? null;
  if (end === null) return [{ reason: 'no_media', detail: `no video frame received by chunk ${k}` }];
  if ((m.backwards ?? 0) > 0)
    out.push({ reason: 'out_of_order', detail: `chunk ${k} carries frames stamped earlier than frames already received` });
  if (end > m.arrival_ms + MEDIA_AHEAD_MS)
    out.push({ reason: 'ahead', detail: `chunk ${k} carries ${end} ms of media ${m.arrival_ms} ms after the live start` });
  if (k < segmentCount(t) && end < (k + 1) * t.segment_ms - MEDIA_BEHIND_MS)
    out.push({
      reason: 'behind',
      detail: `chunk ${k} carries media to ${end} ms, short of its segment's end at ${(k + 1) * t.segment_ms} ms`,
    });
  if (m.arrival_ms > dueMs(t, k))
    out.push({ reason: 'late', detail: `chunk ${k} arrived ${m.arrival_ms - dueMs(t, k)} ms after its deadline` });
  for (const [j, s] of m.shown) {
    const problem = shownProblem(metas, j, s, end);
    if (problem) out.push(problem);
  }
  return out;
}

/**
 * Segment j was revealed by the answer to chunk j−1. The recording's first frame was taken at most
 * A[0] − E[0] after the live start (chunk 0 carried E[0] of media), so at that answer media time was
 * at least A[j−1] − A[0] + E[0], and at least E[j−1]; the report comes with a later chunk, whose
 * media (E) must already reach the shown time.
 */
function shownProblem(metas: readonly LiveChunkMeta[], j: number, s: number, end: number): LiveProblem | null {
  const k = metas.at(-1)!.seq;
  const prev = metas[j - 1];
  const first = metas[0]!;
  if (j > k || !prev) return { reason: 'shown_early', segment: j, detail: `segment ${j} reported shown before it was revealed` };
  const revealedAt = Math.max(prev.media_end_ms ?? 0, prev.arrival_ms - first.arrival_ms + (first.media_end_ms ?? 0));
  if (s < revealedAt - SHOWN_TOLERANCE_MS)
    return {
      reason: 'shown_early',
      segment: j,
      detail: `segment ${j} reported shown ${Math.round(revealedAt - s)} ms before it could have been revealed`,
    };
  if (s > end + SHOWN_LATE_MS)
    return {
      reason: 'shown_late',
      segment: j,
      detail: `segment ${j} reported shown at ${Math.round(s)} ms, after the media received (${end} ms)`,
    };
  // Media time at the reveal was at most the time since the live start (the "ahead" rule's bound).
  const latest = prev.arrival_ms + MEDIA_AHEAD_MS + SHOWN_AFTER_REVEAL_MS;
  if (s > latest)
    return {
      reason: 'shown_late',
      segment: j,
      detail: `segment ${j} reported shown at ${Math.round(s)} ms, ${Math.round(s - prev.arrival_ms)} ms after its reveal was sent`,
    };
  return null;
}

/** Shown times per segment from the chunks' reports (the first report of a segment counts). */
export function shownTimes(t: Timeline, metas: readonly LiveChunkMeta[]): (number | null)[] {
  const out: (number | null)[] = Array.from({ length: segmentCount(t) }, (_, k) => (k === 0 ? 0 : null));
  for (const m of metas)
    for (const [seg, ms] of m.shown) if (seg > 0 && seg < out.length && out[seg] === null) out[seg] = Math.round(ms);
  return out;
}

/** Segments missing, unreported or reported out of order, and a decoded length the stream cannot explain. */
function wholeProblems(t: Timeline, arrivals: number[], shown: (number | null)[], decodedSeconds: number): string[] {
  const n = segmentCount(t);
  const problems: string[] = [];
  if (arrivals.length < n) problems.push(`${arrivals.length} chunks for ${n} segments`);
  for (let k = 1; k < n; k++) {
    const s = shown[k];
    if (s === null || s === undefined) {
      problems.push(`segment ${k} was not reported shown`);
      break;
    }
    if (s < shown[k - 1]!) {
      problems.push(`segment ${k} reported shown before segment ${k - 1}`);
      break;
    }
  }
  if (arrivals.length > 0) {
    const span = (arrivals.at(-1)! - arrivals[0]! + t.segment_ms) / 1000;
    if (decodedSeconds > span + DURATION_TOLERANCE_S)
      problems.push(`${decodedSeconds.toFixed(1)} s of video streamed in ${span.toFixed(1)} s`);
  }
  if (decodedSeconds < t.total_ms / 1000 - DURATION_TOLERANCE_S)
    problems.push(`${decodedSeconds.toFixed(1)} s of video for a ${(t.total_ms / 1000).toFixed(0)} s timeline`);
  return problems;
}

export function assessLive(t: Timeline, metas: readonly LiveChunkMeta[], decodedSeconds: number): LiveAssessment {
  const ordered = [...metas].sort((a, b) => a.seq - b.seq);
  const arrivals = ordered.map((m) => Math.round(m.arrival_ms));
  const chunkLevel = ordered.flatMap((m, i) => [...(m.refused ?? []), ...chunkProblems(t, ordered.slice(0, i + 1))]);
  const shown = shownTimes(t, ordered);
  const problems = [...firstOfEachReason(chunkLevel), ...wholeProblems(t, arrivals, shown, decodedSeconds)];
  if (!problems.length) {
    const detail = 'every segment revealed after the media of the one before arrived, each chunk in real time';
    return { assurance: 'live', detail, shown_ms: shown.map((s) => s!), arrival_ms: arrivals };
  }
  // Only shown times that agree with the arrivals and media go on to the analysis; the schedule for the rest.
  const disputed = new Set(chunkLevel.flatMap((p) => (p.segment === undefined ? [] : [p.segment])));
  const agreed = shown.map((s, k) => (s === null || disputed.has(k) ? k * t.segment_ms : s));
  const monotonic = agreed.every((s, k) => k === 0 || s >= agreed[k - 1]!);
  const shownMs = monotonic ? agreed : shown.map((_, k) => k * t.segment_ms);
  return { assurance: 'recorded', detail: problems.join('; '), shown_ms: shownMs, arrival_ms: arrivals };
}

/** One detail per reason (a chunk-level rule broken by every chunk says so once). */
function firstOfEachReason(problems: readonly LiveProblem[]): string[] {
  const seen = new Set<LiveReason>();
  return problems.filter((p) => !seen.has(p.reason) && seen.add(p.reason)).map((p) => p.detail);
}
