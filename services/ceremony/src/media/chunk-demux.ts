/**
 * Demuxes a live recording chunk by chunk, as the chunks arrive: which video frames each chunk
 * carries and at what media time. Only the container's framing is read (WebM/Matroska element
 * headers, clusters' and blocks' timestamps; fragmented MP4 boxes, `tfdt` and `trun` durations);
 * payloads are skipped unread. The parse resumes from a small JSON-serialisable state kept with the
 * previous chunk (any ceremony replica may receive the next one), so each chunk costs its own bytes
 * only, never the recording so far.
 *
 * Media times are in ms from the first video frame of the recording. A stream that is neither WebM
 * nor MP4, or whose framing is broken, is reported as an error (the caller refuses the chunk).
 */
import { MAX_CARRY_BYTES, type DemuxState } from './demux-state.js';
import { mp4Step } from './mp4-demux.js';
import { webmStep } from './webm-demux.js';

export { initialDemux, type DemuxState } from './demux-state.js';

export type ChunkMedia = {
  state: DemuxState;
  /** Video frames in this chunk. */
  frames: number;
  /** Start of the latest video frame received so far, ms from the first one (null: none yet). */
  mediaEndMs: number | null;
  /** Video frames of this chunk stamped more than a frame earlier than one already received. */
  backwards: number;
  error?: string;
};

function sniff(b: Buffer): DemuxState['format'] {
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (b.length >= 8 && ['ftyp', 'styp', 'moov', 'moof'].includes(b.toString('latin1', 4, 8))) return 'mp4';
  return null;
}

/** Parses one more chunk of the recording from the state the previous chunk left. */
export function demuxChunk(prev: DemuxState, chunk: Buffer): ChunkMedia {
  const s: DemuxState = structuredClone(prev);
  const before = { frames: s.frames, backwards: s.backwards };
  const carry = Buffer.from(s.carry, 'base64');
  const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
  const base = s.off - carry.length;
  s.carry = '';
  const result = (error?: string): ChunkMedia => ({
    state: s,
    frames: s.frames - before.frames,
    backwards: s.backwards - before.backwards,
    mediaEndMs: s.first === null || s.last === null ? null : Math.round(s.last - s.first),
    ...(error ? { error } : {}),
  });
  if (s.format === null) {
    if (buf.length < 8) {
      s.carry = buf.toString('base64');
      s.off = base + buf.length;
      return result();
    }
    s.format = sniff(buf);
    if (s.format === null) return result('the recording is neither WebM nor MP4');
  }
  const step = s.format === 'webm' ? webmStep : mp4Step;
  const out = step(s, buf, base);
  if (typeof out === 'string') return result(out);
  if (buf.length - out > MAX_CARRY_BYTES) return result('a container element is too large to read');
  s.carry = buf.subarray(out).toString('base64');
  s.off = base + buf.length;
  return result();
}
