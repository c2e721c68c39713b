/**
 * Pure helpers of the analysis's frame pass: bounded concurrency with a deadline check, grey
 * images and their comparisons, the mean descriptor, and tracking the signer across frames.
 */
import { l2normalize, meanEar, mouthMetrics, nonRigidResidual } from './geometry.js';
import type { FrameSignals } from './sequence.js';
import type { FaceObs } from './detect.js';
import type { RgbImage } from './media.js';

/** Map with bounded concurrency, preserving order; `check` runs after each completion. */
export function mapLimited<T, R>(
  xs: readonly T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
  check: () => void,
): Promise<R[]> {
  return mapOrdered((i) => Promise.resolve(i < xs.length ? { item: xs[i]! } : undefined), Math.min(limit, xs.length), fn, check);
}

/**
 * Map items that may still be arriving (`get(i)` resolves with item i once it is there, undefined
 * past the end) with at most `limit` calls of `fn` at once, started in index order; results in
 * index order. `check` runs after each completion and may throw (a deadline): then, as when `fn`
 * or `get` fails, no further item is started and the first error rejects the whole.
 */
export async function mapOrdered<T, R>(
  get: (i: number) => Promise<{ item: T } | undefined>,
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
  check: () => void,
): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  let failed = false;
  const run = async () => {
    try {
      while (!failed) {
        const i = next++;
        const got = await get(i);
        if (!got || failed) return;
        out[i] = await fn(got.item, i);
        // tfjs-node's ops settle without reaching the event loop: yield, or timers and I/O (the words
        // worker's answer, NATS, /metrics) wait for the whole pass and the words call times out
        await new Promise<void>((r) => setImmediate(r));
        check();
      }
    } catch (e) {
      failed = true;
      throw e;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, run));
  return out;
}

/**
 * The frames of a decode as they arrive (media.ts `onFrame`), for a pass that starts before the
 * decode ends. `get(i, ahead)` waits until frame i and `ahead` more have arrived, or the decode has
 * ended (then frame i, or undefined past the last), or failed (then it rejects with its error).
 */
export class FrameFeed {
  private readonly frames: RgbImage[] = [];
  private ended = false;
  private error: { e: unknown } | null = null;
  private waiters: (() => void)[] = [];

  push(frame: RgbImage): void {
    this.frames.push(frame);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  fail(e: unknown): void {
    this.error ??= { e };
    this.wake();
  }

  /** Frames arrived so far. */
  get count(): number {
    return this.frames.length;
  }

  /** Whether the decode has ended (every frame has arrived). */
  get done(): boolean {
    return this.ended;
  }

  /** Frame i, once arrived. */
  frame(i: number): RgbImage | undefined {
    return this.frames[i];
  }

  async get(i: number, ahead = 0): Promise<{ item: RgbImage } | undefined> {
    while (this.error === null && !this.ended && this.frames.length <= i + ahead)
      await new Promise<void>((r) => this.waiters.push(r));
    if (this.error) throw this.error.e;
    return i < this.frames.length ? { item: this.frames[i]! } : undefined;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}

export function grey(img: RgbImage): Float32Array {
  return greyInto(img, new Float32Array(img.width * img.height));
}

/** `grey` written into `g` (length width × height). */
function greyInto(img: RgbImage, g: Float32Array): Float32Array {
  const d = img.data;
  for (let i = 0, j = 0; i < g.length; i++, j += 3) g[i] = 0.299 * d[j] + 0.587 * d[j + 1] + 0.114 * d[j + 2];
  return g;
}

/** `greyInto(img, g)` and then `meanAbsDiff(prev, g)` in one pass over the pixels: the same value. */
function greyDiffInto(img: RgbImage, prev: Float32Array, g: Float32Array): number {
  const d = img.data;
  let s = 0;
  for (let i = 0, j = 0; i < g.length; i++, j += 3) {
    g[i] = 0.299 * d[j] + 0.587 * d[j + 1] + 0.114 * d[j + 2];
    s += Math.abs(prev[i] - g[i]);
  }
  return s / g.length;
}

/** Normalised cross-correlation of two equally sized grey images (−1..1). */
export function ncc(a: Float32Array, b: Float32Array): number {
  let ma = 0,
    mb = 0;
  for (let i = 0; i < a.length; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= a.length;
  mb /= b.length;
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] - ma,
      y = b[i] - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}

/** Mean absolute difference of two equally sized grey images. */
export function meanAbsDiff(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s / a.length;
}

export function meanEmbedding(es: number[][]): number[] {
  const out = new Array<number>(es[0].length).fill(0);
  for (const e of es) {
    const n = l2normalize(e);
    for (let i = 0; i < n.length; i++) out[i] += n[i];
  }
  return l2normalize(out);
}

/**
 * Keep the signer as `faces[0]` in every frame: start from the largest face of the first frame
 * with a face, then follow the face whose box centre is nearest the previous primary face.
 */
export function trackPrimary(perFrame: FaceObs[][]): void {
  let prev: [number, number] | null = null;
  for (const faces of perFrame) {
    if (faces.length === 0) continue;
    if (prev && faces.length > 1) {
      const p = prev;
      const d = (f: FaceObs) => Math.hypot(f.box[0] + f.box[2] / 2 - p[0], f.box[1] + f.box[3] / 2 - p[1]);
      let best = 0;
      for (let k = 1; k < faces.length; k++) if (d(faces[k]) < d(faces[best])) best = k;
      if (best > 0) faces.unshift(...faces.splice(best, 1));
    }
    prev = [faces[0].box[0] + faces[0].box[2] / 2, faces[0].box[1] + faces[0].box[3] / 2];
  }
}

/** Per-frame signals of the signer's face; the eye-aspect ratio only where the iris refined it. */
export function frameSignals(
  perFrame: readonly (readonly FaceObs[])[],
  times: readonly number[],
  iris: readonly boolean[],
): FrameSignals[] {
  return perFrame.map((faces, i) => {
    const f = faces[0];
    if (!f) return { t: times[i], yaw: null, pitch: null, ear: null, mouthWidth: null, cornerLift: null };
    const mm = mouthMetrics(f.mesh);
    return {
      t: times[i],
      yaw: f.yawDeg,
      pitch: f.pitchDeg,
      ear: iris[i] ? meanEar(f.mesh) : null,
      mouthWidth: mm.widthRatio,
      cornerLift: mm.cornerLift,
    };
  });
}

/**
 * Largest non-rigid motion against the first face frame of its group, within each group of frames
 * meshed alike: the iris refinement moves the eye contours, so a residual between a refined and an
 * unrefined mesh would look like motion on a still photo. Both groups count (taking only the larger
 * one lost the look-up of a capture whose two blink windows made the refined frames the majority).
 */
export function motionResidual(
  perFrame: readonly (readonly FaceObs[])[],
  faceFrames: readonly number[],
  iris: readonly boolean[],
): number {
  let motion = 0;
  for (const group of [faceFrames.filter((i) => iris[i]), faceFrames.filter((i) => !iris[i])]) {
    if (group.length < 2) continue;
    const base = perFrame[group[0]][0].mesh;
    for (const i of group) motion = Math.max(motion, nonRigidResidual(base, perFrame[i][0].mesh));
  }
  return motion;
}

/** Sensor noise: the median mean-absolute difference of consecutive sampled frames (grey levels).
 *  Two grey buffers reused over the frames (the values of `grey` and `meanAbsDiff`, without a grey
 *  copy of every frame: 531 → 415 ms of CPU for 120 frames of 640×480). */
export function sensorNoise(frames: readonly RgbImage[]): number {
  const acc = sensorNoiseAccumulator();
  for (const f of frames) acc.add(f);
  return acc.value();
}

/** `sensorNoise` one frame at a time, in order (as the decoder hands them over): the same value. */
export function sensorNoiseAccumulator(): { add(frame: RgbImage): void; value(): number } {
  let prev: Float32Array | null = null;
  let cur: Float32Array | null = null;
  const diffs: number[] = [];
  return {
    add(frame) {
      if (!prev) {
        prev = greyInto(frame, new Float32Array(frame.width * frame.height));
        cur = new Float32Array(prev.length);
        return;
      }
      diffs.push(greyDiffInto(frame, prev, cur!));
      [prev, cur] = [cur!, prev];
    },
    value() {
      if (diffs.length === 0) return 0;
      const sorted = [...diffs].sort((a, b) => a - b);
      return sorted[sorted.length >> 1];
    },
  };
}
