import { describe, expect, it } from 'vitest';
import { keyDigest, mediaKeysOf, withoutMediaKeys } from './erasure.js';
import type { CaptureRecord } from './session.js';

describe('capture media erasure', () => {
  const cap = (video: string, frame: string) =>
    ({ video_key: video, frame_key: frame, video_sha256: 'v', frame_sha256: 'f' }) as CaptureRecord;

  it('names every stored object once and skips forfeited attempts', () => {
    expect(mediaKeysOf([cap('1/0/a/video.webm', '1/0/a/frame.jpg'), cap('', '')])).toEqual([
      '1/0/a/video.webm',
      '1/0/a/frame.jpg',
    ]);
  });

  it('drops the keys and keeps the hashes the certificate commits to', () => {
    expect(withoutMediaKeys([cap('k1', 'k2')])[0]).toMatchObject({
      video_key: '',
      frame_key: '',
      video_sha256: 'v',
      frame_sha256: 'f',
    });
  });

  it('hashes keys', () => {
    expect(keyDigest('k')).toMatch(/^[0-9a-f]{64}$/);
    expect(keyDigest('k')).not.toBe(keyDigest('l'));
  });
});
