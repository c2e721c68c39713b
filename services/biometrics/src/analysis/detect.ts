/**
 * One Human detection on one RGB image, returning plain (structured-clone-safe) observations.
 * Used in-process and inside the worker threads of the detector pool.
 *
 * Tracking (`DetectOpts.track`): the frames of one capture are one continuous recording, so a frame
 * may reuse the face boxes this thread's mesh gave on its previous frame of the same capture
 * (Human's own box cache: `face.detector.skipFrames`) instead of running the detector. Only then:
 * the same capture, a later frame at most `TRACK_MAX_GAP` sampled frames on; otherwise, and when a
 * tracked frame yields no face (the mesh lost it: its confidence fell under the detector's
 * minimum), the detector runs on that frame. A face swapped in under a tracked box is meshed and
 * described as it is, so identity still sees it; a second face entering is found by the next
 * frame that detects (the frame plan detects on every `sampling.detectEvery`-th frame).
 */
import type { Pt } from './geometry.js';
import type { RgbImage } from './media.js';
import type { AnalysisConfig } from './config.js';
import type { LoadedModels } from './models.js';

export interface FaceObs {
  box: [number, number, number, number];
  mesh: Pt[];
  yawDeg: number;
  pitchDeg: number;
  embedding?: number[];
  /** meshed (and described) in boxes tracked from the previous frame's mesh, not the detector's:
   *  Human cuts the two differently, and its descriptor of one face differs between them (identity.ts) */
  tracked?: boolean;
  real?: number;
  live?: number;
}

export interface DetectOpts {
  /** compute the faceres descriptor */
  embed: boolean;
  /** refine the eyes with the iris model (default true): the eye-aspect ratio of a blink needs it */
  iris?: boolean;
  /** run antispoof + liveness (supporting signals) */
  supporting: boolean;
  maxFaces: number;
  /** drop faces narrower than this fraction of the largest face */
  minRelativeFaceWidth: number;
  /** a frame of a capture: reuse this thread's boxes of the previous frame when `reuse` and the
   *  previous frame this thread analysed was of the same capture, a little earlier */
  track?: { capture: number; frame: number; reuse: boolean };
}

export interface DetectResult {
  faces: FaceObs[];
  ms: number;
  /** whether the face detector ran (false: boxes tracked from the previous frame's mesh) */
  detected?: boolean;
}

/** Largest gap (sampled frames) over which this thread's previous boxes are reused. */
export const TRACK_MAX_GAP = 4;
/** Human's frame-change threshold high enough that its cache is always allowed (the decision is ours). */
const ALWAYS_CACHE = 1e9;
const NEVER_SKIP = Number.MAX_SAFE_INTEGER;

/** The last capture frame this thread meshed (module state: one per worker thread). */
let lastTracked: { capture: number; frame: number } | null = null;

/** Whether `track` may reuse the boxes left by `last` (pure: unit-tested). */
export function mayReuseBoxes(
  last: { capture: number; frame: number } | null,
  track: DetectOpts['track'],
  maxGap = TRACK_MAX_GAP,
): boolean {
  if (!track?.reuse || !last || last.capture !== track.capture) return false;
  const gap = track.frame - last.frame;
  return gap > 0 && gap <= maxGap;
}

/** Faces largest first; `ms` is the wall time spent inside `human.detect`. */
export async function detectFacesLocal(m: LoadedModels, img: RgbImage, o: DetectOpts): Promise<DetectResult> {
  const fc = m.human.config.face as unknown as Record<string, { enabled: boolean; maxDetected?: number }>;
  fc.description.enabled = o.embed;
  fc.iris.enabled = o.iris ?? true;
  fc.antispoof.enabled = o.supporting && m.models.some((x) => x.name === 'antispoof');
  fc.liveness.enabled = o.supporting && m.models.some((x) => x.name === 'liveness');
  fc.detector.maxDetected = o.maxFaces;
  const reuse = mayReuseBoxes(lastTracked, o.track);
  lastTracked = o.track ? { capture: o.track.capture, frame: o.track.frame } : null;
  // float32 from the start: Human casts an int32 input to float32 anyway (the same values, 0–255);
  // the int32 conversion and that cast cost ≈ 1.2 ms of CPU a frame (median 1.65 → 0.43 ms)
  const input = takeInputBuffer(img.data.length);
  input.set(img.data);
  const t = m.tf.tensor4d(input, [1, img.height, img.width, 3], 'float32');
  try {
    const t0 = performance.now();
    let faces = toObs(await humanDetect(m, t, reuse));
    if (reuse) faces = dropNested(faces);
    let detected = !reuse;
    if (reuse && faces.length === 0) {
      faces = toObs(await humanDetect(m, t, false));
      detected = true;
    }
    const ms = performance.now() - t0;
    if (!detected) for (const f of faces) f.tracked = true;
    if (faces.length === 0) return { faces, ms, detected };
    const minW = faces[0].box[2] * o.minRelativeFaceWidth;
    return { faces: faces.filter((f) => f.box[2] >= minW), ms, detected };
  } finally {
    t.dispose();
    releaseInputBuffer(input);
  }
}

/**
 * One float input buffer per thread, reused frame after frame: a fresh 3.7 MB Float32Array per
 * 640×480 frame was external memory that kept the worker isolates in major GCs (a mark-compact
 * every few frames). The tensor made from it is disposed before the buffer is handed out again; a
 * call made while it is out (not the pool's case: one detection per thread at a time) gets its own.
 */
let inputBuffer: Float32Array | null = null;
let inputBufferOut = false;

function takeInputBuffer(length: number): Float32Array {
  if (inputBufferOut) return new Float32Array(length);
  if (!inputBuffer || inputBuffer.length !== length) inputBuffer = new Float32Array(length);
  inputBufferOut = true;
  return inputBuffer;
}

function releaseInputBuffer(buf: Float32Array): void {
  if (buf === inputBuffer) inputBufferOut = false;
}

/** Human's detect, with its box cache allowed (`reuse`) or the detector forced to run. */
function humanDetect(m: LoadedModels, t: unknown, reuse: boolean) {
  const cfg = m.human.config as unknown as { cacheSensitivity: number };
  const det = m.human.config.face.detector as { skipFrames: number; skipTime: number };
  // Human reuses its cached boxes only when the frame "changed little" (cacheSensitivity > 0, which
  // costs one frame difference) and skipFrames/skipTime allow; 0 turns both off.
  cfg.cacheSensitivity = reuse ? ALWAYS_CACHE : 0;
  det.skipFrames = reuse ? NEVER_SKIP : 0;
  det.skipTime = reuse ? NEVER_SKIP : 0;
  return m.human.detect(t as never);
}

/**
 * Tracked frames only: drop a face whose box centre lies inside a larger face's box. The detector
 * now and then boxes the signer's face twice (a second, offset box on the same face: seen on 4 of
 * 144 frames of a genuine capture); a detection frame counts it once, as before, but tracked it
 * would be carried over the next frames too and fail single_face. A second person beside the signer
 * has its centre outside the signer's box and is tracked like the signer.
 */
export function dropNested(faces: FaceObs[]): FaceObs[] {
  return faces.filter((f, i) => {
    const cx = f.box[0] + f.box[2] / 2;
    const cy = f.box[1] + f.box[3] / 2;
    return !faces.some(
      (g, j) =>
        j < i &&
        g.box[2] >= f.box[2] &&
        cx >= g.box[0] &&
        cx <= g.box[0] + g.box[2] &&
        cy >= g.box[1] &&
        cy <= g.box[1] + g.box[3],
    );
  });
}

type HumanResult = Awaited<ReturnType<LoadedModels['human']['detect']>>;

function toObs(res: HumanResult): FaceObs[] {
  return res.face
    .filter((f) => f.mesh.length >= 468)
    .map((f) => ({
      box: [f.box[0], f.box[1], f.box[2], f.box[3]] as [number, number, number, number],
      mesh: f.mesh.map((p) => [p[0], p[1], p[2] ?? 0]),
      yawDeg: ((f.rotation?.angle.yaw ?? 0) * 180) / Math.PI,
      pitchDeg: ((f.rotation?.angle.pitch ?? 0) * 180) / Math.PI,
      embedding: f.embedding && f.embedding.length > 0 ? [...f.embedding] : undefined,
      real: f.real,
      live: f.live,
    }))
    .sort((a, b) => b.box[2] - a.box[2]);
}

export type Detector = (img: RgbImage, o: Pick<DetectOpts, 'embed' | 'supporting' | 'iris' | 'track'>) => Promise<FaceObs[]>;

/** Detection through the worker pool when there is one, else in this thread; `stats` adds up the calls. */
export function makeDetector(
  m: LoadedModels,
  cfg: Pick<AnalysisConfig, 'maxFacesPerFrame' | 'minRelativeFaceWidth'>,
  stats: { ms: number; calls: number; detected: number },
): Detector {
  return async (img, o) => {
    const opts: DetectOpts = { ...o, maxFaces: cfg.maxFacesPerFrame, minRelativeFaceWidth: cfg.minRelativeFaceWidth };
    const r = m.pool ? await m.pool.detect(img, opts) : await detectFacesLocal(m, img, opts);
    stats.ms += r.ms;
    stats.calls++;
    if (r.detected !== false) stats.detected++;
    return r.faces;
  };
}

let captureSeq = 0;
/** A new id per analysis: tells one capture's frames from another's in the threads' box tracking. */
export function nextCapture(): number {
  return ++captureSeq;
}
