import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demuxChunk, initialDemux, type ChunkMedia, type DemuxState } from './chunk-demux.js';

/** Feeds `parts` one after the other, each from the state the previous one left (through JSON, as Redis keeps it). */
function feed(parts: Buffer[]): ChunkMedia[] {
  let state: DemuxState = initialDemux();
  return parts.map((p) => {
    const out = demuxChunk(JSON.parse(JSON.stringify(state)) as DemuxState, p);
    state = out.state;
    return out;
  });
}

const splitAt = (b: Buffer, sizes: number[]) => {
  const out: Buffer[] = [];
  let o = 0;
  for (const s of sizes) {
    out.push(b.subarray(o, o + s));
    o += s;
  }
  if (o < b.length) out.push(b.subarray(o));
  return out;
};

/** Rewrites every Cluster of a WebM with an unknown-size Segment to unknown size, as MediaRecorder (libwebm's live mode) writes them. */
function unknownSizeClusters(webm: Buffer): Buffer {
  const seg = webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]));
  const out: Buffer[] = [webm.subarray(0, seg + 12)];
  let p = seg + 12;
  const vlen = (b: number) => 8 - Math.floor(Math.log2(b));
  while (p < webm.length) {
    const idLen = vlen(webm[p]!);
    const sizeLen = vlen(webm[p + idLen]!);
    let size = webm[p + idLen]! & (0xff >> sizeLen);
    for (let i = 1; i < sizeLen; i++) size = size * 256 + webm[p + idLen + i]!;
    const cluster = webm.readUInt32BE(p) === 0x1f43b675;
    out.push(
      cluster
        ? Buffer.concat([webm.subarray(p, p + 4), Buffer.from([1, 255, 255, 255, 255, 255, 255, 255])])
        : webm.subarray(p, p + idLen + sizeLen),
    );
    out.push(webm.subarray(p + idLen + sizeLen, p + idLen + sizeLen + size));
    p += idLen + sizeLen + size;
  }
  return Buffer.concat(out);
}

/** Frame timestamps of the video stream by ffprobe (ms from the first). */
function ffprobeFrames(path: string, field: 'pts_time' | 'dts_time'): number[] {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', `packet=${field}`, '-of', 'csv=p=0', path];
  const out = execFileSync('ffprobe', args);
  const ts = out.toString().trim().split('\n').map(Number);
  return ts.map((t) => Math.round((t - ts[0]!) * 1000));
}

describe('chunk demuxer', () => {
  let dir: string;
  let webm: Buffer;
  let mp4: Buffer;
  let webmFrames: number[];
  let mp4Frames: number[];
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'signet-demux-'));
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=15:duration=3', '-f', 'lavfi', '-i', 'sine=duration=3'],
      ...['-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libopus', '-shortest', join(dir, 'a.webm')],
    ]);
    // as MediaRecorder writes it: a live stream, unknown sizes, no cues
    ff(['-i', join(dir, 'a.webm'), '-c', 'copy', '-live', '1', '-f', 'webm', join(dir, 'live.webm')]);
    ff([
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-pix_fmt', 'yuv420p', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '500000'],
      join(dir, 'a.mp4'),
    ]);
    webm = unknownSizeClusters(readFileSync(join(dir, 'live.webm')));
    mp4 = readFileSync(join(dir, 'a.mp4'));
    webmFrames = ffprobeFrames(join(dir, 'live.webm'), 'pts_time');
    mp4Frames = ffprobeFrames(join(dir, 'a.mp4'), 'dts_time');
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds every video frame of a live WebM (unknown-size clusters) at ffprobe's timestamps, however the stream is cut", () => {
    expect(webm.includes(Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff]))).toBe(true);
    expect(feed([readFileSync(join(dir, 'live.webm'))])[0]!.frames).toBe(webmFrames.length);
    for (const size of [webm.length, 7000, 997, 13, 3]) {
      const parts = Array.from({ length: Math.ceil(webm.length / size) }, (_, k) => webm.subarray(k * size, (k + 1) * size));
      const out = feed(parts);
      expect(out.filter((o) => o.error).map((o) => o.error)).toEqual([]);
      expect(out.reduce((a, o) => a + o.frames, 0)).toBe(webmFrames.length);
      expect(out.at(-1)!.mediaEndMs).toBe(webmFrames.at(-1));
      expect(out.every((o) => o.backwards === 0)).toBe(true);
    }
  });

  it('reports the media time each chunk reaches', () => {
    const out = feed(splitAt(webm, [webm.length / 2]));
    expect(out[0]!.mediaEndMs).toBeGreaterThan(500);
    expect(out[0]!.mediaEndMs).toBeLessThan(out[1]!.mediaEndMs!);
    expect(out[1]!.mediaEndMs).toBeGreaterThan(2500);
  });

  it('a header alone carries no frame, nor does padding after it', () => {
    const cluster = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const header = webm.subarray(0, cluster);
    const void_ = Buffer.concat([Buffer.from([0xec, 0x40, 0x64]), Buffer.alloc(100)]);
    const out = feed([header, void_, void_]);
    expect(out.map((o) => [o.frames, o.mediaEndMs, o.error])).toEqual([
      [0, null, undefined],
      [0, null, undefined],
      [0, null, undefined],
    ]);
  });

  it('counts frames stamped earlier than frames already received', () => {
    const cluster = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const second = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]), cluster + 4);
    expect(second).toBeGreaterThan(cluster);
    // the header, the second cluster, then the first one again: its frames go back in time
    const out = feed([webm.subarray(0, cluster), webm.subarray(second), webm.subarray(cluster, second)]);
    expect(out[2]!.frames).toBeGreaterThan(0);
    expect(out[2]!.backwards).toBeGreaterThan(0);
  });

  it('finds every video frame of a fragmented MP4, however the stream is cut', () => {
    for (const size of [mp4.length, 5000, 211, 7]) {
      const parts = Array.from({ length: Math.ceil(mp4.length / size) }, (_, k) => mp4.subarray(k * size, (k + 1) * size));
      const out = feed(parts);
      expect(out.filter((o) => o.error).map((o) => o.error)).toEqual([]);
      expect(out.reduce((a, o) => a + o.frames, 0)).toBe(mp4Frames.length);
      expect(out.at(-1)!.mediaEndMs).toBe(Math.max(...mp4Frames));
    }
  });

  it('refuses what is neither WebM nor MP4, and broken framing', () => {
    expect(feed([Buffer.from('this is not a video at all')])[0]!.error).toMatch(/neither WebM nor MP4/);
    expect(feed([Buffer.from('short')])[0]).toMatchObject({ frames: 0, mediaEndMs: null });
    expect(feed([Buffer.from('short'), Buffer.from('er than a video')])[1]!.error).toMatch(/neither WebM nor MP4/);
    const cluster = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const broken = Buffer.concat([webm.subarray(0, cluster + 12), Buffer.alloc(64, 0)]);
    expect(feed([broken])[0]!.error).toMatch(/malformed/);
  });

  it('costs a fraction of a millisecond per chunk of a second', () => {
    const parts = Array.from({ length: 40 }, (_, k) => webm.subarray((k * webm.length) / 40, ((k + 1) * webm.length) / 40));
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) feed(parts);
    const perChunk = (performance.now() - t0) / (20 * 40);
    expect(perChunk).toBeLessThan(5);
  });
});
