/**
 * The capture's media as files: magic bytes from disk and the two ffprobe runs whose output the
 * pure rules in domain/media.ts judge. The only I/O of the media checks.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { videoUnreadable } from '../domain/errors.js';
import { judgeDemux, judgeFrames, type MediaLimits, type Probe, type VideoKind } from '../domain/media.js';

export async function readHead(path: string, n = 64): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function run(cmd: string, args: string[], timeoutMs: number, maxBuffer = 8 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

export type MediaTools = { ffmpeg: string; ffprobe: string; timeoutMs: number };

/**
 * Measures a video from its stream and refuses what the analysis must not get. Two ffprobe runs:
 * first the demuxed packets (cheap: no decoding) so that an overlong, overfast or oversized stream
 * is refused before it costs a decode; then every video frame decoded, from which the duration,
 * frame rate, size and bitrate are taken. The container's stated duration is only compared, never
 * used: a header that disagrees with the stream is refused.
 */
export async function probeVideo(path: string, kind: VideoKind, tools: MediaTools, limits: MediaLimits): Promise<Probe> {
  // 1. Demux only: streams, the stated duration, the video packets' timestamps. A header that lies
  // and a stream too long or too fast are refused here, before any decoding.
  let out: string;
  try {
    out = await run(
      tools.ffprobe,
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration:stream=index,codec_type,codec_name,width,height,duration:packet=stream_index,pts_time,dts_time',
        '-of',
        'compact',
        path,
      ],
      tools.timeoutMs,
    );
  } catch {
    throw videoUnreadable(kind);
  }
  const demuxed = judgeDemux(out, kind, limits);

  // 2. Decode every video frame.
  try {
    out = await run(
      tools.ffprobe,
      [
        '-v',
        'error',
        '-select_streams',
        demuxed.videoIndex,
        '-show_entries',
        'frame=best_effort_timestamp_time,pkt_size,width,height',
        '-of',
        'compact',
        path,
      ],
      tools.timeoutMs,
    );
  } catch {
    throw videoUnreadable(kind);
  }
  return judgeFrames(out, kind, limits, demuxed);
}
