/**
 * The chunk demuxer's state, kept with each chunk of a live recording (JSON in Redis) so the next
 * chunk resumes where it left off, and what the WebM and MP4 framings share (media/chunk-demux.ts).
 */
/** A master element / box still open: its id and where it ends (null: unknown size, WebM only). */
export type Open = { id: number; end: number | null };

export type DemuxState = {
  format: 'webm' | 'mp4' | null;
  /** Bytes of the stream consumed so far (the carry included). */
  off: number;
  /** Bytes of an element whose header or needed fields did not fit in the last chunk (base64). */
  carry: string;
  /** Payload bytes still to skip. */
  skip: number;
  stack: Open[];
  /** WebM: ns per timestamp tick. */
  scale: number;
  /** WebM: the open cluster's timestamp (ticks). */
  cluster: number | null;
  /** The track being described (WebM TrackEntry, MP4 trak) or fragment (MP4 traf). */
  entry: Record<string, number>;
  /** The video track's number (WebM) or ID (MP4), once its description was read. */
  video: number | null;
  /** MP4: the video track's timescale and default sample duration. */
  timescale: number;
  defaultDuration: number;
  /** Media time (ms, absolute) of the first and of the latest video frame. */
  first: number | null;
  last: number | null;
  frames: number;
  /** Video frames stamped earlier than a frame already received. */
  backwards: number;
};

export const initialDemux = (): DemuxState => ({
  format: null,
  off: 0,
  carry: '',
  skip: 0,
  stack: [],
  scale: 1_000_000,
  cluster: null,
  entry: {},
  video: null,
  timescale: 0,
  defaultDuration: 0,
  first: null,
  last: null,
  frames: 0,
  backwards: 0,
});

/** A frame stamped this much earlier than the latest one is out of order (encoders' reordering is less). */
export const BACKWARDS_TOLERANCE_MS = 100;
/** The most bytes kept from one chunk to the next (an element header and the fields read from it). */
export const MAX_CARRY_BYTES = 64 * 1024;

/** Records one video frame at an absolute media time (ms). */
export function frameAt(s: DemuxState, ms: number): void {
  s.frames++;
  if (s.first === null) s.first = ms;
  if (s.last !== null && ms < s.last - BACKWARDS_TOLERANCE_MS) s.backwards++;
  if (s.last === null || ms > s.last) s.last = ms;
}
