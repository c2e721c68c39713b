import { invalid } from '@signet/kit';
import { staleNonce, tooLarge } from '../domain/errors.js';
import { chunkProblems, EXTRA_CHUNKS, MAX_CHUNK_BYTES, refusal, type LiveChunkMeta } from '../domain/live.js';
import { MAX_VIDEO_BYTES } from '../domain/media.js';
import { revealOf, segmentCount, type Reveal, type Timeline } from '../domain/timeline.js';
import { demuxChunk, initialDemux } from '../media/chunk-demux.js';
import type { LiveBuffer } from '../store/live.buffer.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

export type LiveChunkIn = {
  token: string;
  nonce: string;
  seq: number;
  data: Uint8Array;
  /** The segments the page reports shown since the last chunk, with their media times. */
  shown: { segment: number; shownMs: number }[];
};
export type LiveAck = { seq: number; reveal: Reveal | undefined; done: boolean };

const answer = (t: Timeline, words: string[], seq: number): LiveAck =>
  seq + 1 < segmentCount(t) ? { seq, reveal: revealOf(t, words, seq + 1), done: false } : { seq, reveal: undefined, done: true };

/**
 * One chunk of a live recording. Its arrival time is taken now, before anything else, and kept
 * with the chunk; the chunk is demuxed from where the previous one left off (its video frames and
 * their media times), and the answer reveals the next segment. A chunk of the segments without a
 * video frame, or one that cannot be read, is refused and the recording can no longer be "live";
 * a chunk that breaks a timing rule (domain/live.ts) is stored, and the recording will be
 * "recorded". A chunk sent again (a retry) gets the same answer and is not stored twice; a chunk
 * out of order is refused.
 */
export async function appendLive(
  deps: ResolveDeps & Pick<CeremonyDeps, 'metrics' | 'now'> & { live: Pick<LiveBuffer, 'append' | 'state' | 'refuse'> },
  req: LiveChunkIn,
): Promise<LiveAck> {
  const arrived = deps.now();
  if (!/^[0-9a-f]{64}$/.test(req.nonce)) throw invalid('nonce must be the 64-hex nonce of the live challenge');
  if (!Number.isInteger(req.seq) || req.seq < 0) throw invalid('seq must be a non-negative integer');
  if (req.data.length === 0) throw invalid('a chunk must carry data');
  if (req.data.length > MAX_CHUNK_BYTES) throw tooLarge('chunk (2 MB at most)');
  const r = await resolveSession(deps, req.token);
  const c = r.session.challenge;
  if (!c || c.nonce !== req.nonce || c.mode !== 'live' || !c.live_started_at || !c.timeline || c.expires_at.getTime() <= arrived)
    throw staleNonce();
  const t = c.timeline;
  const n = segmentCount(t);
  const shown: [number, number][] = [];
  for (const s of req.shown.slice(0, n)) {
    if (!Number.isInteger(s.segment) || s.segment < 1 || s.segment >= n || !Number.isFinite(s.shownMs) || s.shownMs < 0)
      throw invalid('shown: each entry needs a segment in 1..segments-1 and a non-negative shown_ms');
    shown.push([s.segment, s.shownMs]);
  }
  const ttlMs = c.expires_at.getTime() - arrived;
  const before = await deps.live.state(r.session._id, c.nonce);
  if (req.seq < before.metas.length) {
    deps.metrics.live.inc({ result: 'duplicate' });
    return answer(t, c.words, req.seq);
  }
  if (req.seq > before.metas.length) {
    deps.metrics.live.inc({ result: 'gap' });
    throw invalid(`chunk ${req.seq} is out of order: send the chunks in order from 0`);
  }
  const media = demuxChunk(before.demux ?? initialDemux(), Buffer.from(req.data));
  const refused = refusal(t, req.seq, media);
  if (refused) {
    await deps.live.refuse(r.session._id, c.nonce, refused, ttlMs);
    deps.metrics.liveProblems.inc({ reason: refused.reason });
    throw invalid(`${refused.detail}; this recording can no longer count as live`, 'LIVE_CHUNK_REFUSED');
  }
  const meta: LiveChunkMeta = {
    seq: req.seq,
    arrival_ms: arrived - c.live_started_at.getTime(),
    shown,
    media_end_ms: media.mediaEndMs,
    frames: media.frames,
    backwards: media.backwards,
  };
  const result = await deps.live.append(r.session._id, c.nonce, meta, Buffer.from(req.data), media.state, {
    maxBytes: MAX_VIDEO_BYTES,
    maxChunks: n + EXTRA_CHUNKS,
    ttlMs,
  });
  deps.metrics.live.inc({ result });
  if (result === 'gap') throw invalid(`chunk ${req.seq} is out of order: send the chunks in order from 0`);
  if (result === 'too_large') throw tooLarge('live recording (50 MB at most)');
  if (result === 'too_many') throw invalid(`more chunks than the recording has segments (${n + EXTRA_CHUNKS} at most)`);
  // Counted once, when the chunk is stored; the finish judges the whole recording by the same rules.
  if (result === 'appended')
    for (const p of chunkProblems(t, [...before.metas, meta])) deps.metrics.liveProblems.inc({ reason: p.reason });
  return answer(t, c.words, req.seq);
}
