/**
 * WebM/Matroska framing for the chunk demuxer (media/chunk-demux.ts): EBML element headers, the
 * timestamp scale, which track is video, each cluster's timestamp and each block's. MediaRecorder
 * writes the Segment and its Clusters with unknown sizes (a live stream); an unknown-size Cluster
 * ends where an element that cannot be its child begins.
 */
import { frameAt, type DemuxState } from './demux-state.js';

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const CLUSTER = 0x1f43b675;
const BLOCK_GROUP = 0xa0;
const TIMESTAMP_SCALE = 0x2ad7b1;
const TRACK_NUMBER = 0xd7;
const TRACK_TYPE = 0x83;
const CLUSTER_TIMESTAMP = 0xe7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK = 0xa1;

const MASTERS = new Set([SEGMENT, INFO, TRACKS, TRACK_ENTRY, CLUSTER, BLOCK_GROUP]);
/** Elements that may appear inside a Cluster (Matroska spec); any other ends an unknown-size one. */
const CLUSTER_CHILDREN = new Set([CLUSTER_TIMESTAMP, SIMPLE_BLOCK, BLOCK_GROUP, 0xa7, 0xab, 0x5854, 0xaf, 0xbf, 0xec]);
const UINT_LEAVES = new Set([TIMESTAMP_SCALE, TRACK_NUMBER, TRACK_TYPE, CLUSTER_TIMESTAMP]);

type Vint = { len: number; value: number | null } | 'short' | 'bad';

/** An EBML variable-size integer; `raw` keeps the marker bit (element ids). Unknown size → null. */
function vint(b: Buffer, p: number, raw: boolean): Vint {
  if (p >= b.length) return 'short';
  const first = b[p]!;
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  if (len > (raw ? 4 : 8)) return 'bad';
  if (p + len > b.length) return 'short';
  let v = raw ? first : first & (0xff >> len);
  let allOnes = v === 0xff >> len;
  for (let i = 1; i < len; i++) {
    v = v * 256 + b[p + i]!;
    allOnes &&= b[p + i] === 0xff;
  }
  if (!raw && allOnes) return { len, value: null };
  if (v > Number.MAX_SAFE_INTEGER) return 'bad';
  return { len, value: v };
}

const readUint = (b: Buffer, p: number, n: number) => {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[p + i]!;
  return v;
};

/** A leaf whose value the demuxer uses. */
function onLeaf(s: DemuxState, id: number, value: number): string | undefined {
  if (id === TIMESTAMP_SCALE) {
    if (value < 1000 || value > 1e9) return 'the WebM timestamp scale is out of range';
    s.scale = value;
  } else if (id === CLUSTER_TIMESTAMP) s.cluster = value;
  else {
    s.entry[id === TRACK_NUMBER ? 'number' : 'type'] = value;
    if (s.video === null && s.entry.type === 1 && s.entry.number !== undefined) s.video = s.entry.number;
  }
  return undefined;
}

/** A (Simple)Block: track number, then a signed 16-bit timestamp relative to its cluster's. */
function onBlock(s: DemuxState, b: Buffer, p: number, size: number): 'short' | string | undefined {
  const track = vint(b, p, false);
  if (track === 'short') return size < 4 ? 'a WebM block is too short' : 'short';
  if (track === 'bad' || track.value === null || size < track.len + 3) return 'a WebM block is malformed';
  if (p + track.len + 2 > b.length) return 'short';
  if (track.value !== s.video) return undefined;
  if (s.cluster === null) return 'a WebM block outside a cluster with a timestamp';
  frameAt(s, ((s.cluster + b.readInt16BE(p + track.len)) * s.scale) / 1e6);
  return undefined;
}

/**
 * Reads elements from `buf` (which starts at stream offset `base`) until its end; returns where the
 * carry to the next chunk starts, or the reason the stream is refused.
 */
export function webmStep(s: DemuxState, buf: Buffer, base: number): number | string {
  let p = 0;
  for (;;) {
    if (s.skip > 0) {
      const n = Math.min(s.skip, buf.length - p);
      p += n;
      s.skip -= n;
      if (s.skip > 0) return p;
    }
    const abs = base + p;
    while (s.stack.length && s.stack.at(-1)!.end !== null && s.stack.at(-1)!.end! <= abs) s.stack.pop();
    if (p >= buf.length) return p;
    const id = vint(buf, p, true);
    if (id === 'short') return p;
    if (id === 'bad' || id.value === null) return 'the WebM stream is malformed (bad element id)';
    const size = vint(buf, p + id.len, false);
    if (size === 'short') return p;
    if (size === 'bad') return 'the WebM stream is malformed (bad element size)';
    const hdr = id.len + size.len;
    const top = s.stack.at(-1);
    if (top?.id === CLUSTER && top.end === null && !CLUSTER_CHILDREN.has(id.value)) s.stack.pop();
    if (id.value === EBML && abs > 0) return 'a second WebM header inside the recording';
    if (MASTERS.has(id.value)) {
      if (size.value === null && id.value !== SEGMENT && id.value !== CLUSTER)
        return 'the WebM stream is malformed (unknown size)';
      s.stack.push({ id: id.value, end: size.value === null ? null : abs + hdr + size.value });
      if (id.value === TRACK_ENTRY) s.entry = {};
      if (id.value === CLUSTER) s.cluster = null;
      p += hdr;
      continue;
    }
    if (size.value === null) return 'the WebM stream is malformed (unknown size)';
    if (UINT_LEAVES.has(id.value)) {
      if (size.value > 8) return 'the WebM stream is malformed (integer too long)';
      if (p + hdr + size.value > buf.length) return p;
      const err = onLeaf(s, id.value, readUint(buf, p + hdr, size.value));
      if (err) return err;
    } else if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
      const r = onBlock(s, buf, p + hdr, size.value);
      if (r === 'short') return p;
      if (r) return r;
    }
    p += hdr;
    s.skip = size.value;
  }
}
