import { describe, expect, it } from 'vitest';
import { sniffImage, sniffVideo } from './media.js';

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
