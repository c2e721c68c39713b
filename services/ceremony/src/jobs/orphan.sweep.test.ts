import { describe, expect, it } from 'vitest';
import { parseCaptureKey } from './orphan.sweep.js';

describe('parseCaptureKey', () => {
  const id = '0b6f1c9e-2d3a-4c5b-8e7f-1a2b3c4d5e6f';
  it('reads the session and capture of keys the capture handler writes', () => {
    expect(parseCaptureKey(`42/0/${id}/video.webm`)).toEqual({ sessionId: '42:0', captureId: id });
    expect(parseCaptureKey(`42/3/${id}/frame.jpg`)).toEqual({ sessionId: '42:3', captureId: id });
    expect(parseCaptureKey(`7/1/${id}/video.mp4`)).toEqual({ sessionId: '7:1', captureId: id });
  });
  it('rejects anything else, so the sweep never deletes what it did not write', () => {
    for (const k of [
      'notes/readme.txt',
      `42/0/${id}/other.webm`,
      `42/0/${id}/video.webm/extra`,
      `x/0/${id}/video.webm`,
      `42/0/not-a-uuid/video.webm`,
      `42/0/${id.toUpperCase()}/video.webm`,
      `/42/0/${id}/video.webm`,
    ])
      expect(parseCaptureKey(k), k).toBeNull();
  });
});
