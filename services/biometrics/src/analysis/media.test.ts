import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeVideo, FFMPEG, isMp4, runFfmpeg, withMediaInput } from './media.js';
import { decodeAudio, SAMPLE_RATE } from './voice.js';

/**
 * An mp4 as a camera app or an encoder without fast start writes it: `moov` after a `mdat` too large
 * for ffmpeg to buffer from a pipe (6 s, 640×480, 4 Mbit/s, with a tone on the audio track).
 */
describe('media input: an mp4 whose index comes last', () => {
  let dir: string;
  let late: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bio-media-test-'));
    const file = join(dir, 'late.mp4');
    // prettier-ignore
    execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=30', '-f', 'lavfi', '-i', 'sine=f=440:sample_rate=48000',
      '-t', '6', '-c:v', 'libx264', '-b:v', '4M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file]);
    late = readFileSync(file);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is really one ffmpeg cannot read from a pipe', async () => {
    expect(isMp4(late)).toBe(true);
    expect(late.indexOf('moov')).toBeGreaterThan(late.indexOf('mdat'));
    // From a pipe ffmpeg gets (nearly) none of the 6 s of audio: it errors or stops early.
    const piped = await runFfmpeg(
      ['-i', 'pipe:0', '-map', '0:a:0', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'],
      late,
    ).then(
      (r) => r.stdout.length,
      () => 0,
    );
    expect(piped).toBeLessThan(3 * SAMPLE_RATE * 2);
  });

  it('decodes every sampled frame and the whole audio track, served from memory', async () => {
    const video = await decodeVideo(late, { fps: 6, width: 320 });
    expect(video.frames).toHaveLength(36);
    expect(video.height).toBe(240);
    const pcm = await decodeAudio(late, 120);
    expect(pcm).not.toBeNull();
    expect(pcm!.length / SAMPLE_RATE).toBeCloseTo(6, 0);
  });

  it('serves the bytes only under its own path, and only for the call', async () => {
    let url = '';
    await withMediaInput(late, async (input, stdin) => {
      url = input;
      expect(stdin).toBeNull();
      expect(input).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
      const part = await fetch(input, { headers: { range: 'bytes=0-7' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(late.subarray(0, 8));
      expect((await fetch(new URL('/other', input))).status).toBe(404);
    });
    await expect(fetch(url)).rejects.toThrow();
  });

  it('pipes WebM and fast-start mp4 as before', async () => {
    const fast = Buffer.from(
      execFileSync(
        FFMPEG,
        [
          '-v',
          'error',
          '-i',
          join(dir, 'late.mp4'),
          '-c',
          'copy',
          '-movflags',
          '+faststart+frag_keyframe+empty_moov',
          '-f',
          'mp4',
          'pipe:1',
        ],
        { maxBuffer: 64 << 20 },
      ),
    );
    await withMediaInput(fast, async (input, stdin) => {
      expect(input).toBe('pipe:0');
      expect(stdin).toBe(fast);
    });
  });
});
