/**
 * One Human detection on one RGB image, returning plain (structured-clone-safe) observations.
 * Used in-process and inside the worker threads of the detector pool.
 *
 * Tracking (`DetectOpts.reuse`): the frames of one capture are one continuous recording, so a frame
 * may reuse the face boxes the mesh gave on the frame before it (Human's own box cache:
 * `face.detector.skipFrames`) instead of running the detector. Frames are tracked only inside a
 * run (`detectRunLocal`): consecutive frames of one capture meshed one after the other by one
 * thread, the first always detected. A verdict then depends on its capture's bytes only, never on
 * how the pool interleaved captures analysed at the same time (each thread used to reuse whatever
 * frame of the capture it had meshed last, so the same capture got different scores from run to
 * run: docs/decisions.md, session 19). When a tracked frame yields no face (the mesh lost it: its
 * confidence fell under the detector's minimum), the detector runs on that frame. A face swapped in
 * under a tracked box is meshed and described as it is, so identity still sees it; a second face
 * entering is found by the next run's first frame (the frame plan detects on every
 * `sampling.detectEvery`-th frame).
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
  /** reuse the boxes of the frame meshed just before this one: only inside a run (detectRunLocal),
   *  where that frame is the one before it in the same capture; ignored on a run's first frame */
  reuse?: boolean;
}

export interface DetectResult {
  faces: FaceObs[];
  ms: number;
  /** whether the face detector ran (false: boxes tracked from the previous frame's mesh) */
  detected?: boolean;
}

/** Human's frame-change threshold high enough that its cache is always allowed (the decision is ours). */
const ALWAYS_CACHE = 1e9;
const NEVER_SKIP = Number.MAX_SAFE_INTEGER;

/**
 * A run of consecutive frames of one capture, meshed in order in this thread: a frame with `reuse`
 * tracks the boxes of the one before it; the first always runs the detector. Nothing else runs on
 * this thread's Human between the frames (the pool hands a run to one worker as one job).
 */
export async function detectRunLocal(
  m: LoadedModels,
  imgs: readonly RgbImage[],
  opts: readonly DetectOpts[],
): Promise<DetectResult[]> {
  if (imgs.length !== opts.length) throw new Error(`a run of ${imgs.length} frames with ${opts.length} options`);
  const out: DetectResult[] = [];
  for (const [k, img] of imgs.entries()) {
    // tracked only after a frame that found a face (Human would otherwise detect anyway, unseen)
    const reuse = k > 0 && opts[k]!.reuse === true && out[k - 1]!.faces.length > 0;
    out.push(await detectFacesLocal(m, img, opts[k]!, { reuse, prime: opts[k + 1]?.reuse === true }));
  }
  return out;
}

/**
 * Faces largest first; `ms` is the wall time spent inside `human.detect`. `track.reuse`: track the
 * boxes Human kept from this thread's previous call, which the caller guarantees was the frame
 * before this one in the same capture (detectRunLocal), made with `track.prime`; a lone frame
 * always detects.
 */
export async function detectFacesLocal(
  m: LoadedModels,
  img: RgbImage,
  o: DetectOpts,
  track: { reuse: boolean; prime: boolean } = { reuse: false, prime: false },
): Promise<DetectResult> {
  const reuse = track.reuse;
  const fc = m.human.config.face as unknown as Record<string, { enabled: boolean; maxDetected?: number }>;
  fc.description.enabled = o.embed;
  fc.iris.enabled = o.iris ?? true;
  fc.antispoof.enabled = o.supporting && m.models.some((x) => x.name === 'antispoof');
  fc.liveness.enabled = o.supporting && m.models.some((x) => x.name === 'liveness');
  fc.detector.maxDetected = o.maxFaces;
  // float32 from the start: Human casts an int32 input to float32 anyway (the same values, 0–255);
  // the int32 conversion and that cast cost ≈ 1.2 ms of CPU a frame (median 1.65 → 0.43 ms)
  const input = takeInputBuffer(img.data.length);
  input.set(img.data);
  const t = m.tf.tensor4d(input, [1, img.height, img.width, 3], 'float32');
  try {
    const t0 = performance.now();
    let faces = toObs(await humanDetect(m, t, reuse, track.prime));
    if (reuse) faces = dropNested(faces);
    let detected = !reuse;
    if (reuse && faces.length === 0) {
      faces = toObs(await humanDetect(m, t, false, track.prime));
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

/**
 * Human's detect, with its box cache allowed (`reuse`) or the detector forced to run. Human reuses
 * its cached boxes only when skipFrames/skipTime allow and the frame "changed little" from the
 * last input it kept, which it keeps only on calls with cacheSensitivity > 0 (one frame difference)
 * and compares only at the same size: with no such input (a fresh thread), or one of another size
 * (another capture's), it detects silently. So the frame before a tracked one keeps its input
 * (`prime`, with the detector still forced by skipFrames 0) and the tracked frame always finds it.
 */
function humanDetect(m: LoadedModels, t: unknown, reuse: boolean, prime: boolean) {
  const cfg = m.human.config as unknown as { cacheSensitivity: number };
  const det = m.human.config.face.detector as { skipFrames: number; skipTime: number };
  cfg.cacheSensitivity = reuse || prime ? ALWAYS_CACHE : 0;
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

/** What a frame asks of the detector (the pool's limits are added by makeDetector). */
export type FrameOpts = Pick<DetectOpts, 'embed' | 'supporting' | 'iris' | 'reuse'>;
/** Runs of consecutive frames of one capture (detectRunLocal); a lone frame is a run of one. */
export type Detector = (imgs: readonly RgbImage[], o: readonly FrameOpts[]) => Promise<FaceObs[][]>;

/** Detection through the worker pool when there is one, else in this thread; `stats` adds up the calls. */
export function makeDetector(
  m: LoadedModels,
  cfg: Pick<AnalysisConfig, 'maxFacesPerFrame' | 'minRelativeFaceWidth'>,
  stats: { ms: number; calls: number; detected: number },
): Detector {
  return async (imgs, o) => {
    const opts: DetectOpts[] = o.map((x) => ({
      ...x,
      maxFaces: cfg.maxFacesPerFrame,
      minRelativeFaceWidth: cfg.minRelativeFaceWidth,
    }));
    const rs = m.pool ? await m.pool.detectRun(imgs, opts) : await detectRunLocal(m, imgs, opts);
    for (const r of rs) {
      stats.ms += r.ms;
      stats.calls++;
      if (r.detected !== false) stats.detected++;
    }
    return rs.map((r) => r.faces);
  };
}
