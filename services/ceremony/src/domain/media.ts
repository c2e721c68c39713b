import {
  videoBitrateLow,
  videoDurationMismatch,
  videoFrameRateHigh,
  videoFrameRateLow,
  videoNoStream,
  videoResolutionHigh,
  videoResolutionLow,
  videoTooLong,
  videoTooShort,
  videoUnreadable,
} from './errors.js';

export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Default of MEDIA_MAX_VIDEO_SECONDS: the recording lasts about 16 s. */
export const MAX_VIDEO_SECONDS = 30;
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

/**
 * What a capture must measure up to, measured on the decoded stream. The floors sit well under what
 * genuine captures give (docs/decisions.md "Media that cannot lie": Chrome's MediaRecorder at
 * 640×480 and 1.5 Mb/s, the corpus renderer, the test fixtures) and above what the analysis can use.
 */
export const MEDIA_RULES = {
  minSeconds: MIN_VIDEO_SECONDS,
  /** Orientation-agnostic: the short side at least 240 px, the long side at least 320 px (QVGA). */
  minShortSide: 240,
  minLongSide: 320,
  /** 1920×1080: a bigger picture only costs decoding time here and in the analysis. */
  maxPixels: 1920 * 1080,
  /**
   * Frames per second of the decoded stream (frames over the decoded duration). The floor is the
   * analysis's sampling rate (biometrics `sampling.fps`): below it the analysis would see repeated frames.
   */
  minFps: 8,
  maxFps: 60,
  /**
   * Video bits per pixel per second: 200 kb/s at 640×480 (0.65), 50 kb/s at 320×240. Scaled by the
   * picture area so that a floor means the same detail per pixel whatever the camera delivered.
   */
  minBitsPerPixelSecond: 200_000 / (640 * 480),
  /** A stated container duration may differ from the decoded one by this much (audio may run longer). */
  durationToleranceSeconds: 1,
  durationToleranceFraction: 0.05,
} as const;

export type MediaLimits = { maxSeconds: number };

/** A probe's measurements, every one taken from the stream, none from the container header. */
export type Probe = {
  /** decoded video duration: the span of the decoded frames' timestamps plus one mean frame interval */
  durationSeconds: number;
  /** decoded video frames */
  frames: number;
  /** frames / durationSeconds */
  fps: number;
  /** smallest decoded frame size (a stream may change size mid-way) */
  width: number;
  height: number;
  /** video stream bits per second: packet bytes of the decoded frames over the decoded duration */
  videoBitrate: number;
  /** the duration the container header states (MP4 mvhd/mdhd, WebM Info), null when it states none */
  statedDurationSeconds: number | null;
  codec: string;
  hasAudio: boolean;
};

type Section = Record<string, string>;

/** ffprobe `-of compact` output: one `section|key=value|…` line per entry. */
function compact(out: string): { section: string; f: Section }[] {
  const rows: { section: string; f: Section }[] = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [section, ...kv] = line.split('|');
    const f: Section = {};
    for (const p of kv) {
      const i = p.indexOf('=');
      if (i > 0) f[p.slice(0, i)] = p.slice(i + 1);
    }
    rows.push({ section: section!, f });
  }
  return rows;
}

const num = (v: string | undefined): number | null => {
  if (v === undefined || v === '' || v === 'N/A') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** What the demuxer showed (no decoding): the video stream to decode and the durations the header states. */
export type Demuxed = { videoIndex: string; stated: number[]; codec: string; hasAudio: boolean };

function statedChecker(kind: VideoKind, stated: readonly number[]) {
  return (decoded: number) => {
    const tolerance = Math.max(MEDIA_RULES.durationToleranceSeconds, MEDIA_RULES.durationToleranceFraction * decoded);
    for (const d of stated) if (Math.abs(d - decoded) > tolerance) throw videoDurationMismatch(kind, d, decoded);
  };
}

/**
 * Step 1, on ffprobe's demux output (`format=duration:stream=…:packet=…`, compact): refuses a header
 * that lies and a stream too long, too fast or too large before any decoding.
 */
export function judgeDemux(out: string, kind: VideoKind, limits: MediaLimits): Demuxed {
  const R = MEDIA_RULES;
  const maxFrames = Math.ceil(limits.maxSeconds * R.maxFps);
  const tooLong = (s: number) => videoTooLong(limits.maxSeconds, s);
  const rows = compact(out);
  const streams = rows.filter((r) => r.section === 'stream');
  const video = streams.find((s) => s.f.codec_type === 'video' && (num(s.f.width) ?? 0) > 0);
  if (!video) throw videoNoStream();
  const vIndex = video.f.index;
  const pixels = (num(video.f.width) ?? 0) * (num(video.f.height) ?? 0);
  if (pixels > R.maxPixels) throw videoResolutionHigh(num(video.f.width)!, num(video.f.height)!, R.maxPixels);
  let packets = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    if (r.section !== 'packet' || r.f.stream_index !== vIndex) continue;
    packets++;
    const t = num(r.f.pts_time) ?? num(r.f.dts_time);
    if (t === null) continue;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  const stated = [num(rows.find((r) => r.section === 'format')?.f.duration), num(video.f.duration)].filter(
    (d): d is number => d !== null && d > 0,
  );
  const checkStated = statedChecker(kind, stated);
  if (packets > 1 && hi > lo) checkStated(((hi - lo) * packets) / (packets - 1));
  if (packets > maxFrames + 1) throw videoFrameRateHigh(`has ${packets} frames, more than ${maxFrames} (${R.maxFps} per second)`);
  if (hi - lo > limits.maxSeconds) throw tooLong(hi - lo);

  return {
    videoIndex: String(vIndex),
    stated,
    codec: video.f.codec_name ?? '',
    hasAudio: streams.some((s) => s.f.codec_type === 'audio'),
  };
}

/**
 * Step 2, on ffprobe's decoded frames of that stream (`frame=best_effort_timestamp_time,pkt_size,
 * width,height`, compact): the measurements every rule is applied to, none taken from the header.
 */
export function judgeFrames(out: string, kind: VideoKind, limits: MediaLimits, demuxed: Demuxed): Probe {
  const R = MEDIA_RULES;
  const tooLong = (s: number) => videoTooLong(limits.maxSeconds, s);
  const checkStated = statedChecker(kind, demuxed.stated);
  const times: number[] = [];
  let bytes = 0;
  let width = Infinity;
  let height = Infinity;
  for (const r of compact(out)) {
    if (r.section !== 'frame') continue;
    const t = num(r.f.best_effort_timestamp_time);
    if (t === null) continue;
    times.push(t);
    bytes += num(r.f.pkt_size) ?? 0;
    width = Math.min(width, num(r.f.width) ?? Infinity);
    height = Math.min(height, num(r.f.height) ?? Infinity);
  }
  const frames = times.length;
  if (frames < 2 || !Number.isFinite(width) || !Number.isFinite(height)) throw videoUnreadable(kind);
  const span = Math.max(...times) - Math.min(...times);
  // n frames a mean interval apart last n intervals: the last frame is shown for one interval too.
  const durationSeconds = span > 0 ? (span * frames) / (frames - 1) : 0;
  const fps = durationSeconds > 0 ? frames / durationSeconds : Infinity;
  const videoBitrate = durationSeconds > 0 ? (bytes * 8) / durationSeconds : 0;

  // 3. The rules, the lie first: it says the most about the file.
  checkStated(durationSeconds);
  if (durationSeconds > limits.maxSeconds) throw tooLong(durationSeconds);
  if (durationSeconds < R.minSeconds) throw videoTooShort(R.minSeconds, durationSeconds);
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  if (short < R.minShortSide || long < R.minLongSide) throw videoResolutionLow(width, height, R.minLongSide, R.minShortSide);
  if (width * height > R.maxPixels) throw videoResolutionHigh(width, height, R.maxPixels);
  if (fps < R.minFps) throw videoFrameRateLow(R.minFps, fps);
  if (fps > R.maxFps + 0.5) throw videoFrameRateHigh(`has ${fps.toFixed(1)} frames per second, more than ${R.maxFps}`);
  const minBitrate = R.minBitsPerPixelSecond * width * height;
  if (videoBitrate < minBitrate) throw videoBitrateLow(minBitrate, videoBitrate, width, height);
  return {
    durationSeconds,
    frames,
    fps,
    width,
    height,
    videoBitrate,
    statedDurationSeconds: demuxed.stated.length ? demuxed.stated[0]! : null,
    codec: demuxed.codec,
    hasAudio: demuxed.hasAudio,
  };
}
