import { describe, expect, it } from 'vitest';
import { judgeDemux, judgeFrames, type Demuxed } from './media.js';

const limits = { maxSeconds: 30 };

/** ffprobe's compact demux output: the stated durations and one packet line per video frame. */
function demuxOut(o: { stated: number; frames: number; fps: number; audio?: boolean }): string {
  const lines = [
    `format|duration=${o.stated}`,
    `stream|index=0|codec_name=h264|codec_type=video|width=640|height=480|duration=${o.stated}`,
  ];
  if (o.audio) lines.push('stream|index=1|codec_name=aac|codec_type=audio|width=0|height=0|duration=N/A');
  for (let i = 0; i < o.frames; i++) lines.push(`packet|stream_index=0|pts_time=${(i / o.fps).toFixed(6)}|dts_time=N/A`);
  return lines.join('\n') + '\n';
}

/** ffprobe's compact decoded-frame output. */
function framesOut(o: { frames: number; fps: number; width: number; height: number; bytes: number }): string {
  const lines: string[] = [];
  for (let i = 0; i < o.frames; i++)
    lines.push(
      `frame|best_effort_timestamp_time=${(i / o.fps).toFixed(6)}|pkt_size=${o.bytes}|width=${o.width}|height=${o.height}`,
    );
  return lines.join('\n') + '\n';
}

const reason = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as { reason?: string }).reason;
  }
};

describe('the media rules on what ffprobe measured (pure)', () => {
  it('refuses a header that states 10 s over 65 s of packets before any decoding', () => {
    expect(reason(() => judgeDemux(demuxOut({ stated: 10, frames: 65 * 15, fps: 15 }), 'mp4', limits))).toBe(
      'VIDEO_DURATION_MISMATCH',
    );
  });

  it('refuses an honest header over a stream longer than the limit', () => {
    expect(reason(() => judgeDemux(demuxOut({ stated: 40, frames: 40 * 15, fps: 15 }), 'mp4', limits))).toBe('VIDEO_TOO_LONG');
  });

  it('refuses more packets than the frame-rate ceiling allows', () => {
    expect(reason(() => judgeDemux(demuxOut({ stated: 10, frames: 10 * 240, fps: 240 }), 'mp4', limits))).toBe(
      'VIDEO_FRAME_RATE_TOO_HIGH',
    );
  });

  it('measures an honest 10 s capture from its frames, not its header', () => {
    const demuxed = judgeDemux(demuxOut({ stated: 10, frames: 150, fps: 15, audio: true }), 'webm', limits);
    expect(demuxed).toEqual({ videoIndex: '0', stated: [10, 10], codec: 'h264', hasAudio: true });
    const probe = judgeFrames(framesOut({ frames: 150, fps: 15, width: 640, height: 480, bytes: 2500 }), 'webm', limits, demuxed);
    expect(probe.durationSeconds).toBeCloseTo(10, 5);
    expect(probe.fps).toBeCloseTo(15, 5);
    expect(probe.videoBitrate).toBeCloseTo(300_000, -2);
    expect(probe.statedDurationSeconds).toBe(10);
  });

  it('refuses decoded frames that disagree with the header, a small picture, a low rate and a low bitrate', () => {
    const demuxed: Demuxed = { videoIndex: '0', stated: [10], codec: 'h264', hasAudio: true };
    const frames = (o: Partial<Parameters<typeof framesOut>[0]>) =>
      framesOut({ frames: 150, fps: 15, width: 640, height: 480, bytes: 2500, ...o });
    expect(reason(() => judgeFrames(frames({ frames: 300 }), 'mp4', limits, demuxed))).toBe('VIDEO_DURATION_MISMATCH');
    expect(reason(() => judgeFrames(frames({ width: 160, height: 120 }), 'mp4', limits, demuxed))).toBe(
      'VIDEO_RESOLUTION_TOO_LOW',
    );
    expect(reason(() => judgeFrames(frames({ frames: 50, fps: 5 }), 'mp4', limits, demuxed))).toBe('VIDEO_FRAME_RATE_TOO_LOW');
    expect(reason(() => judgeFrames(frames({ bytes: 500 }), 'mp4', limits, demuxed))).toBe('VIDEO_BITRATE_TOO_LOW');
    expect(
      reason(() => judgeFrames('frame|best_effort_timestamp_time=0|pkt_size=10|width=640|height=480\n', 'mp4', limits, demuxed)),
    ).toBe('VIDEO_UNREADABLE');
  });
});
