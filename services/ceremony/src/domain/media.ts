import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { invalid } from '@signet/kit';

export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
export const MAX_VIDEO_SECONDS = 60;
export const MIN_VIDEO_SECONDS = 1;

export type VideoKind = 'webm' | 'mp4';
export type ImageKind = 'jpeg' | 'png';

/** WebM is EBML (1A 45 DF A3) with DocType "webm"; MP4 has an "ftyp" box at offset 4. */
export function sniffVideo(head: Uint8Array): VideoKind | undefined {
  const b = Buffer.from(head);
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3 && b.subarray(0, 64).includes('webm')) return 'webm';
  if (b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  return undefined;
}

export function sniffImage(head: Uint8Array): ImageKind | undefined {
  const b = Buffer.from(head);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return undefined;
}

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

function run(cmd: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

export type Probe = { durationSeconds: number; width: number; height: number; codec: string; hasAudio: boolean };

export type MediaTools = { ffmpeg: string; ffprobe: string; timeoutMs: number };

/**
 * Probes a video for a real video stream and its duration. MediaRecorder's WebM has no duration in
 * its header, so WebM is first remuxed (stream copy, no re-encode) into a file that has one.
 */
export async function probeVideo(path: string, kind: VideoKind, tools: MediaTools): Promise<Probe> {
  let target = path;
  if (kind === 'webm') {
    target = `${path}.remux.webm`;
    try {
      await run(tools.ffmpeg, ['-v', 'error', '-y', '-i', path, '-map', '0', '-c', 'copy', target], tools.timeoutMs);
    } catch {
      throw invalid('video is not a readable WebM file', 'VIDEO_UNREADABLE');
    }
  }
  let out: string;
  try {
    out = await run(
      tools.ffprobe,
      ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,codec_name,width,height', '-of', 'json', target],
      tools.timeoutMs,
    );
  } catch {
    throw invalid('video could not be read', 'VIDEO_UNREADABLE');
  }
  const parsed = JSON.parse(out) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
  };
  const video = parsed.streams?.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0);
  if (!video) throw invalid('video has no video stream', 'VIDEO_NO_STREAM');
  const durationSeconds = Number(parsed.format?.duration);
  if (!Number.isFinite(durationSeconds)) throw invalid('video has no readable duration', 'VIDEO_NO_DURATION');
  if (durationSeconds > MAX_VIDEO_SECONDS + 0.5) throw invalid(`video is longer than ${MAX_VIDEO_SECONDS} s`, 'VIDEO_TOO_LONG');
  if (durationSeconds < MIN_VIDEO_SECONDS) throw invalid(`video is shorter than ${MIN_VIDEO_SECONDS} s`, 'VIDEO_TOO_SHORT');
  return {
    durationSeconds,
    width: video.width ?? 0,
    height: video.height ?? 0,
    codec: video.codec_name ?? '',
    hasAudio: parsed.streams?.some((s) => s.codec_type === 'audio') ?? false,
  };
}
