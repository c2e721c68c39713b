import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@signet/kit';
import { rewriteMp4Duration, statedMp4Durations } from '../../../../test/fixtures/mp4-duration.js';
import { MEDIA_RULES, sniffImage, sniffVideo, type Probe } from '../domain/media.js';
import { probeVideo, readHead } from './probe.js';

describe('magic bytes', () => {
  it('recognises WebM, MP4, JPEG and PNG and nothing else', () => {
    const webm = Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
      Buffer.from('webm'),
    ]);
    expect(sniffVideo(webm)).toBe('webm');
    const mkv = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88]), Buffer.from('matroska')]);
    expect(sniffVideo(mkv)).toBeUndefined();
    expect(sniffVideo(Buffer.from('\0\0\0\x18ftypisom\0\0\0\0', 'latin1'))).toBe('mp4');
    expect(sniffVideo(Buffer.from('hello, this is a text file named .webm'))).toBeUndefined();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeUndefined();
  });
});

/**
 * probeVideo on real files made with ffmpeg: every measurement from the decoded stream, each rule
 * refusing with its own reason (the `result` label of signet_ceremony_captures_total).
 */
describe('probeVideo', () => {
  const run = promisify(execFile);
  const tools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', timeoutMs: 30_000 };
  const limits = { maxSeconds: 30 };
  let dir: string;
  const path = (name: string) => join(dir, name);
  const ffmpeg = (args: string[]) => run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
  const vp8 = (name: string, src: string, bitrate: string, extra: string[] = []) =>
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      src,
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      bitrate,
      ...extra,
      path(name),
    ]);
  const h264 = (name: string, src: string, extra: string[] = []) =>
    ffmpeg(['-f', 'lavfi', '-i', src, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...extra, path(name)]);
  const probe = async (name: string, l = limits): Promise<Probe> => {
    const kind = sniffVideo(await readHead(path(name)));
    if (!kind) throw new Error(`${name} is neither WebM nor MP4`);
    return probeVideo(path(name), kind, tools, l);
  };
  const refusal = (name: string, l = limits) =>
    probe(name, l).then(
      (p) => ({ accepted: p }) as const,
      (e: unknown) => {
        if (!(e instanceof DomainError)) throw e;
        return { kind: e.kind, reason: e.reason, message: e.message };
      },
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ceremony-media-'));
    // The e2e fixture (test/fixtures/ceremony-media.ts makeWebm): 320×240, 15 fps, 300 kb/s, 3 s, Opus.
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=15:duration=3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      '-c:v',
      'libvpx',
      '-b:v',
      '300k',
      '-c:a',
      'libopus',
      '-shortest',
      path('fixture.webm'),
    ]);
    await Promise.all([
      // As MediaRecorder writes it: no duration anywhere in the header.
      ffmpeg(['-i', path('fixture.webm'), '-c', 'copy', '-f', 'webm', '-live', '1', path('live.webm')]),
      vp8('portrait.webm', 'testsrc2=size=240x320:rate=15:duration=2', '300k'),
      vp8('tiny.webm', 'testsrc2=size=160x120:rate=15:duration=3', '150k'),
      vp8('starved.webm', 'testsrc2=size=640x480:rate=15:duration=3', '100k', ['-maxrate', '100k', '-minrate', '50k']),
      vp8('slideshow.webm', 'testsrc2=size=320x240:rate=5:duration=3', '300k'),
      vp8('fast.webm', 'testsrc2=size=320x240:rate=120:duration=2', '600k'),
      vp8('blink.webm', 'testsrc2=size=320x240:rate=15:duration=0.5', '300k'),
      h264('huge.mp4', 'color=c=gray:size=2560x1440:rate=15:duration=1'),
      h264('long65.mp4', 'testsrc=size=320x240:rate=15:duration=65', ['-b:v', '400k', '-movflags', '+faststart']),
      h264('honest20.mp4', 'testsrc=size=320x240:rate=15:duration=20', ['-b:v', '400k']),
      ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'libopus', path('audio.webm')]),
    ]);
    writeFileSync(path('lie65.mp4'), rewriteMp4Duration(readFileSync(path('long65.mp4')), 10));
    writeFileSync(path('lie20.mp4'), rewriteMp4Duration(readFileSync(path('honest20.mp4')), 10));
    const head = readFileSync(path('fixture.webm')).subarray(0, 64);
    writeFileSync(path('garbage.webm'), Buffer.concat([head, Buffer.alloc(200_000, 0x55)]));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('measures a genuine capture from its frames: duration, frame count and rate, size, bitrate', async () => {
    const p = await probe('fixture.webm');
    expect(p.frames).toBe(45);
    expect(p.durationSeconds).toBeCloseTo(3, 1);
    expect(p.fps).toBeCloseTo(15, 0);
    expect({ width: p.width, height: p.height, codec: p.codec, hasAudio: p.hasAudio }).toEqual({
      width: 320,
      height: 240,
      codec: 'vp8',
      hasAudio: true,
    });
    expect(p.videoBitrate).toBeGreaterThan(200_000);
    expect(p.videoBitrate).toBeLessThan(450_000);
    expect(p.statedDurationSeconds).toBeCloseTo(3, 1);
  });

  it('needs no duration in the header (MediaRecorder writes none), and takes a portrait camera', async () => {
    const live = await probe('live.webm');
    expect(live.statedDurationSeconds).toBeNull();
    expect(live.durationSeconds).toBeCloseTo(3, 1);
    const portrait = await probe('portrait.webm');
    expect([portrait.width, portrait.height]).toEqual([240, 320]);
  });

  it('refuses an MP4 whose header says 10 s: 65 s of frames, and 20 s of frames (within the limit)', async () => {
    expect(statedMp4Durations(readFileSync(path('lie65.mp4')))).toEqual({ movie: 10, media: [10] });
    const long = await refusal('lie65.mp4');
    expect(long).toMatchObject({ kind: 'invalid_argument', reason: 'VIDEO_DURATION_MISMATCH' });
    expect(long).toHaveProperty('message', expect.stringMatching(/header says .* 10\.0 s but its frames run 65\.0 s/));
    expect(await refusal('lie20.mp4')).toMatchObject({ reason: 'VIDEO_DURATION_MISMATCH' });
    // The same files with an honest header: the 20 s one passes, the 65 s one is too long.
    expect((await probe('honest20.mp4')).durationSeconds).toBeCloseTo(20, 1);
    expect(await refusal('long65.mp4')).toMatchObject({ reason: 'VIDEO_TOO_LONG' });
  });

  it('refuses by the configured maximum and the 1 s minimum', async () => {
    const long = await refusal('fixture.webm', { maxSeconds: 2 });
    expect(long).toMatchObject({ reason: 'VIDEO_TOO_LONG' });
    expect(long).toHaveProperty('message', expect.stringMatching(/longer than the 2 s/));
    expect(await refusal('blink.webm')).toMatchObject({ reason: 'VIDEO_TOO_SHORT' });
  });

  it('refuses a picture under 320×240 or over 2 megapixels', async () => {
    const tiny = await refusal('tiny.webm');
    expect(tiny).toMatchObject({ reason: 'VIDEO_RESOLUTION_TOO_LOW' });
    expect(tiny).toHaveProperty('message', expect.stringMatching(/160×120, smaller than 320×240/));
    expect(await refusal('huge.mp4')).toMatchObject({ reason: 'VIDEO_RESOLUTION_TOO_HIGH' });
  });

  it(`refuses fewer than ${MEDIA_RULES.minFps} or more than ${MEDIA_RULES.maxFps} frames per second`, async () => {
    expect(await refusal('slideshow.webm')).toMatchObject({ reason: 'VIDEO_FRAME_RATE_TOO_LOW' });
    expect(await refusal('fast.webm')).toMatchObject({ reason: 'VIDEO_FRAME_RATE_TOO_HIGH' });
  });

  it('refuses a starved bitrate: 100 kb/s at 640×480', async () => {
    const r = await refusal('starved.webm');
    expect(r).toMatchObject({ reason: 'VIDEO_BITRATE_TOO_LOW' });
    expect(r).toHaveProperty('message', expect.stringMatching(/under the 200 kb\/s a 640×480 capture needs/));
  });

  it('refuses what does not decode, and a file without a video stream', async () => {
    expect(await refusal('garbage.webm')).toMatchObject({ reason: 'VIDEO_UNREADABLE' });
    expect(await refusal('audio.webm')).toMatchObject({ reason: 'VIDEO_NO_STREAM' });
  });

  it('every refusal reason is a lower-case metric label once lower-cased, and refusals are 400s', async () => {
    for (const name of ['tiny.webm', 'lie65.mp4', 'starved.webm', 'slideshow.webm']) {
      const r = await refusal(name);
      expect(r).toHaveProperty('kind', 'invalid_argument');
      expect((r as { reason: string }).reason.toLowerCase()).toMatch(/^video_[a-z_]+$/);
    }
  });
});
