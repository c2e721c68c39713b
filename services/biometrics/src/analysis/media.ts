/**
 * Media decoding through the ffmpeg binary (spawned, data piped through stdin/stdout, or served
 * from memory on loopback when ffmpeg must seek; raw media never touches disk here).
 */
import { FfmpegTimeoutError, runFfmpeg } from './ffmpeg.js';
import { withMediaInput } from './media-input.js';

/** The picture size of ffmpeg's first output stream in its report (`level+verbose`). */
const OUTPUT_SIZE = /Output #0[\s\S]*?Stream #0:0[^\n]*: Video: rawvideo[^\n]*?(\d{2,5})x(\d{2,5})/;

export { isMp4, withMediaInput } from './media-input.js';

export { FFMPEG, FfmpegTimeoutError, runFfmpeg } from './ffmpeg.js';

/** An RGB image, 3 bytes per pixel, row-major. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface DecodedVideo {
  frames: RgbImage[];
  /** presentation time of each sampled frame, seconds (fps-based) */
  times: number[];
  fps: number;
  width: number;
  height: number;
  /** seconds of video decoded: sampled frames / fps (never more than the `maxSeconds` cap) */
  decodedDurationS: number;
  /** frames of the stream ffmpeg decoded to produce the samples; null when ffmpeg did not report it */
  sourceFrames: number | null;
  /** true when the video went on past a cap: only its first `decodedDurationS` were decoded */
  truncated: boolean;
  /** the stream's own picture size, before scaling to `width` */
  sourceWidth: number;
  sourceHeight: number;
}

/**
 * Caps on decoding one capture, so that no file can hold a worker whatever its header says: at most
 * `maxSeconds` of video (the ceremony refuses longer captures: MEDIA_MAX_VIDEO_SECONDS, 30 s), at
 * most `maxSeconds × maxSourceFps` decoded frames (a stream whose timestamps are squeezed together
 * still costs a decode per frame), and at most `maxDecodeMs` of ffmpeg's CPU time (a 20 s 640×480 WebM
 * decodes and samples in about 1.5 s of CPU here). CPU, not wall time: the frame pass now runs while
 * the decode does, so on a busy machine ffmpeg's wall time grows with the analysis's own load (a
 * 30 s MP4 passed a 20 s wall cap at load 6–10 while using a fraction of that CPU); the wall time
 * is bounded by the analysis deadline.
 */
export const DECODE_LIMITS = { maxSeconds: 30, maxSourceFps: 60, maxDecodeMs: 20_000 } as const;

/** ffmpeg input options for raw RGB frames of the given size on stdin (follow with `-i pipe:0`). */
export function rawRgbInput(width: number, height: number): string[] {
  return ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`];
}

/** Scale filter that keeps aspect ratio with an even height. */
function scaleFilter(width: number): string {
  return `scale=${width}:-2:flags=bilinear`;
}

/**
 * Decode a video (webm or mp4, from memory) into RGB frames sampled at `fps`, scaled to `width`.
 * WebM and fast-start mp4 are piped through stdin; other mp4 is served from memory on loopback.
 * Decoding stops at the caps of DECODE_LIMITS (overridable here): what lies past them is never
 * decoded and the result says `truncated`; a decode that uses more than `maxDecodeMs` of CPU, or
 * outlasts `timeoutMs` (the analysis deadline), is killed with FfmpegTimeoutError.
 * `onFrame` is called with each sampled frame as soon as ffmpeg has written it (in order, the same
 * objects the result lists), so analysis can start before the decode ends.
 */
export async function decodeVideo(
  video: Buffer,
  opts: {
    fps: number;
    width: number;
    timeoutMs?: number;
    maxSeconds?: number;
    maxSourceFrames?: number;
    maxDecodeMs?: number;
    onFrame?: (frame: RgbImage, index: number) => void;
    /** only the samples from `start` to `end` (s, on the same clock as a whole decode's: sample k
     *  at k / fps); `times` are then theirs */
    window?: { start: number; end: number };
  },
): Promise<DecodedVideo> {
  const maxSeconds = opts.maxSeconds ?? DECODE_LIMITS.maxSeconds;
  const maxSamples = Math.ceil(maxSeconds * opts.fps);
  const maxSource = opts.maxSourceFrames ?? Math.ceil(maxSeconds * DECODE_LIMITS.maxSourceFps);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxCpuMs = opts.maxDecodeMs ?? DECODE_LIMITS.maxDecodeMs;
  return withMediaInput(video, async (inp, stdin) => {
    const { args, first } = videoDecodeArgs(inp, opts, maxSource, maxSamples);
    // The picture size comes from ffmpeg's own report as this decode starts (its output stream, so
    // after any rotation the container asks for; the input stream's for the quality floor), not from
    // a separate probe: output that arrives before the report is held until it is read.
    let frameBytes = 0;
    let height = 0;
    let source: { width: number; height: number } | null = null;
    const held: Buffer[] = [];
    const onStderr = (text: string) => {
      if (frameBytes) return;
      const input = /Stream #\d+:\d+[^\n]*: Video:[^\n]*?(\d{2,5})x(\d{2,5})/.exec(text);
      const output = OUTPUT_SIZE.exec(text);
      if (!input || !output) return;
      source = { width: Number(input[1]), height: Number(input[2]) };
      height = Number(output[2]);
      frameBytes = opts.width * height * 3;
      current = frameBuffer(frameBytes);
      for (const b of held.splice(0)) cut(b);
    };
    // frames are cut from ffmpeg's output as it arrives: each into its own buffer, the samples past
    // the cap only counted (the one extra sample is how a longer video shows). The buffers are
    // shared memory: the detector pool's workers read a frame without a copy (pool.ts), and no one
    // writes to a frame once it is cut.
    const frames: RgbImage[] = [];
    const times: number[] = [];
    let decoded = 0;
    let current: Uint8Array = new Uint8Array(0);
    let filled = 0;
    const cut = (chunk: Buffer) => {
      let off = 0;
      while (off < chunk.length) {
        const take = Math.min(frameBytes - filled, chunk.length - off);
        if (decoded < maxSamples) current.set(chunk.subarray(off, off + take), filled);
        filled += take;
        off += take;
        if (filled < frameBytes) continue;
        if (decoded < maxSamples) {
          const frame: RgbImage = { width: opts.width, height, data: current };
          frames.push(frame);
          times.push((first + decoded) / opts.fps);
          opts.onFrame?.(frame, decoded);
          current = frameBuffer(frameBytes);
        }
        decoded++;
        filled = 0;
      }
    };
    const onStdout = (chunk: Buffer) => (frameBytes ? cut(chunk) : held.push(chunk));
    const { stderr } = await runFfmpeg(args, stdin, timeoutMs, { verbose: true, onStdout, onStderr, maxCpuMs }).catch(
      (e: unknown) => {
        if (e instanceof Error && !(e instanceof FfmpegTimeoutError) && !source)
          throw new Error(`no video stream found (${e.message})`);
        throw e;
      },
    );
    onStderr(stderr);
    if (!frameBytes || !source) throw new Error('no video stream found');
    const dims: { width: number; height: number } = source;
    const sourceFrames = decodedFrames(stderr);
    const n = frames.length;
    const truncated = decoded > maxSamples || (sourceFrames !== null && sourceFrames > maxSource);
    return {
      frames,
      times,
      fps: opts.fps,
      width: opts.width,
      height,
      decodedDurationS: n / opts.fps,
      sourceFrames,
      truncated,
      sourceWidth: dims.width,
      sourceHeight: dims.height,
    };
  });
}

/**
 * The ffmpeg command of a video decode: sampled at `fps`, scaled to `width`, one sample and one
 * source frame past each cap (getting them is how a longer video shows). A `window` is selected by
 * sample number (the fps filter's output count), so each of its samples is the very frame a whole
 * decode at this rate gives at that index; `first` is the first one's number.
 */
function videoDecodeArgs(
  inp: string,
  opts: { fps: number; width: number; window?: { start: number; end: number } },
  maxSource: number,
  maxSamples: number,
): { args: string[]; first: number } {
  const w = opts.window;
  const first = w ? Math.max(0, Math.ceil(w.start * opts.fps - 1e-6)) : 0;
  const last = w ? Math.floor(w.end * opts.fps + 1e-6) : 0;
  const select = w ? `select='between(n\\,${first}\\,${last})',` : '';
  const args = [
    '-i',
    inp,
    '-an',
    '-vf',
    `trim=end_frame=${maxSource + 1},fps=${opts.fps},${select}${scaleFilter(opts.width)}`,
    // a window's samples as selected: no frames made up to fill the time before and after it
    ...(w ? ['-fps_mode', 'passthrough'] : []),
    '-frames:v',
    String(maxSamples + 1),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ];
  return { args, first };
}

/** "Input stream #0:0 (video): 600 packets read (…); 600 frames decoded;" from ffmpeg's verbose final report. */
export function decodedFrames(stderr: string): number | null {
  const m = /Input stream #\d+:\d+ \(video\): \d+ packets read \(\d+ bytes\); (\d+) frames decoded/.exec(stderr);
  return m ? Number(m[1]) : null;
}

/**
 * Decode a still image (jpeg/png) to RGB, optionally scaled to `width` (the height then keeps the
 * aspect ratio, rounded to an even number of pixels). One ffmpeg: the scale's height is an
 * expression of the input's size, and the output's size is read from ffmpeg's own report, as for a
 * video (a probe first was a second ffmpeg per still, ≈ 0.1 s of CPU each, mostly loading its
 * libraries).
 */
export async function decodeImage(image: Buffer, width?: number, timeoutMs = 30_000): Promise<RgbImage> {
  const vf = width ? ['-vf', `scale=${width}:round(ih*${width}/iw/2)*2:flags=bicubic`] : [];
  const { stdout, stderr } = await runFfmpeg(
    ['-i', 'pipe:0', ...vf, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    image,
    timeoutMs,
    { verbose: true },
  );
  const out = OUTPUT_SIZE.exec(stderr);
  if (!out) throw new Error('no video stream found');
  const [w, h] = [Number(out[1]), Number(out[2])];
  if (stdout.length < w * h * 3) throw new Error(`image decode produced ${stdout.length} bytes, expected ${w * h * 3}`);
  return { width: w, height: h, data: new Uint8Array(stdout.buffer, stdout.byteOffset, w * h * 3) };
}

/** Nearest/bilinear resize of an RGB image (pure JS, for small thumbnails). */
export function resizeRgb(img: RgbImage, width: number, height: number): RgbImage {
  const out = new Uint8Array(width * height * 3);
  const sx = img.width / width;
  const sy = img.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(img.height - 1, (y + 0.5) * sy - 0.5);
    const y0 = Math.max(0, Math.floor(fy));
    const y1 = Math.min(img.height - 1, y0 + 1);
    const wy = Math.max(0, fy - y0);
    for (let x = 0; x < width; x++) {
      const fx = Math.min(img.width - 1, (x + 0.5) * sx - 0.5);
      const x0 = Math.max(0, Math.floor(fx));
      const x1 = Math.min(img.width - 1, x0 + 1);
      const wx = Math.max(0, fx - x0);
      for (let c = 0; c < 3; c++) {
        const a = img.data[(y0 * img.width + x0) * 3 + c];
        const b = img.data[(y0 * img.width + x1) * 3 + c];
        const d = img.data[(y1 * img.width + x0) * 3 + c];
        const e = img.data[(y1 * img.width + x1) * 3 + c];
        out[(y * width + x) * 3 + c] = Math.round((a * (1 - wx) + b * wx) * (1 - wy) + (d * (1 - wx) + e * wx) * wy);
      }
    }
  }
  return { width, height, data: out };
}

/** A frame's pixels in shared memory, so that a worker thread reads them without a copy. */
function frameBuffer(bytes: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(bytes));
}
