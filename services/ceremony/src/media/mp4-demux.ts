/**
 * Fragmented MP4 framing for the chunk demuxer (media/chunk-demux.ts), as MediaRecorder writes it
 * where WebM is not offered: `moov` names the video track (`tkhd` id, `mdhd` timescale, `hdlr`
 * `vide`, `trex` default duration), then each `moof`/`traf` gives its fragment's decode time
 * (`tfdt`) and its samples' durations (`trun`). Sample data (`mdat`) is skipped unread.
 */
import { frameAt, MAX_CARRY_BYTES, type DemuxState } from './demux-state.js';

const fourcc = (t: string) => t.split('').reduce((v, c) => v * 256 + c.charCodeAt(0), 0);
const MASTERS = new Set(['moov', 'trak', 'mdia', 'mvex', 'moof', 'traf'].map(fourcc));
const LEAVES = new Set(['tkhd', 'mdhd', 'hdlr', 'trex', 'tfhd', 'tfdt', 'trun'].map(fourcc));
const [TRAK, TRAF] = [fourcc('trak'), fourcc('traf')];

const u64 = (b: Buffer, p: number) => b.readUInt32BE(p) * 2 ** 32 + b.readUInt32BE(p + 4);

/** The fields of a track's description; the video track is known once id, timescale and handler are. */
function onTrackBox(s: DemuxState, type: string, b: Buffer): void {
  const v1 = b[0] === 1;
  if (type === 'tkhd') s.entry.id = b.readUInt32BE(v1 ? 20 : 12);
  else if (type === 'mdhd') s.entry.timescale = b.readUInt32BE(v1 ? 20 : 12);
  else if (type === 'hdlr') s.entry.video = b.toString('latin1', 8, 12) === 'vide' ? 1 : 0;
  else if (type === 'trex' && b.readUInt32BE(4) === s.video) s.defaultDuration = b.readUInt32BE(12);
  const e = s.entry;
  if (s.video === null && e.video === 1 && e.id !== undefined && e.timescale) {
    s.video = e.id;
    s.timescale = e.timescale;
  }
}

/** A fragment's header, decode time and sample run: each video sample is a frame at its decode time. */
function onFragmentBox(s: DemuxState, type: string, b: Buffer): string | undefined {
  const flags = b.readUInt32BE(0) & 0xffffff;
  const e = s.entry;
  if (type === 'tfhd') {
    e.track = b.readUInt32BE(4);
    const p = 8 + (flags & 1 ? 8 : 0) + (flags & 2 ? 4 : 0);
    e.duration = flags & 8 ? b.readUInt32BE(p) : s.defaultDuration;
  } else if (type === 'tfdt') e.t = b[0] === 1 ? u64(b, 4) : b.readUInt32BE(4);
  else if (type === 'trun' && e.track === s.video && s.video !== null) {
    const count = b.readUInt32BE(4);
    const each = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
    let p = 8 + (flags & 1 ? 4 : 0) + (flags & 4 ? 4 : 0);
    if (p + count * each > b.length) return 'an MP4 sample run is malformed';
    for (let i = 0; i < count; i++, p += each) {
      frameAt(s, (e.t! * 1000) / s.timescale);
      e.t! += flags & 0x100 ? b.readUInt32BE(p) : e.duration!;
    }
    e.next = e.t!;
  }
  return undefined;
}

/**
 * Reads boxes from `buf` (which starts at stream offset `base`) until its end; returns where the
 * carry to the next chunk starts, or the reason the stream is refused.
 */
export function mp4Step(s: DemuxState, buf: Buffer, base: number): number | string {
  let p = 0;
  for (;;) {
    if (s.skip > 0) {
      const n = Math.min(s.skip, buf.length - p);
      p += n;
      s.skip -= n;
      if (s.skip > 0) return p;
    }
    const abs = base + p;
    while (s.stack.length && s.stack.at(-1)!.end! <= abs) s.stack.pop();
    if (p + 8 > buf.length) return p;
    let size = buf.readUInt32BE(p);
    const type = buf.toString('latin1', p + 4, p + 8);
    let hdr = 8;
    if (size === 1) {
      if (p + 16 > buf.length) return p;
      size = u64(buf, p + 8);
      hdr = 16;
    } else if (size === 0) size = Number.MAX_SAFE_INTEGER - abs;
    if (size < hdr || !/^[\x20-\x7e]{4}$/.test(type)) return 'the MP4 stream is malformed (bad box header)';
    const id = fourcc(type);
    if (MASTERS.has(id)) {
      s.stack.push({ id, end: abs + size });
      if (id === TRAK) s.entry = {};
      if (id === TRAF) s.entry = { t: s.entry.next ?? 0, next: s.entry.next ?? 0, duration: s.defaultDuration };
      p += hdr;
      continue;
    }
    if (LEAVES.has(id)) {
      if (size > MAX_CARRY_BYTES) return `the MP4 ${type} box is too large`;
      if (p + size > buf.length) return p;
      const body = buf.subarray(p + hdr, p + size);
      const fragment = type === 'tfhd' || type === 'tfdt' || type === 'trun';
      try {
        const err = fragment ? onFragmentBox(s, type, body) : onTrackBox(s, type, body);
        if (err) return err;
      } catch {
        return `the MP4 ${type} box is too short`;
      }
      p += size;
      continue;
    }
    p += hdr;
    s.skip = size - hdr;
  }
}
