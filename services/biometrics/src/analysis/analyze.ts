/**
 * analyzeCapture: decide whether a ceremony capture is live, did the challenge in order, stays one
 * person, ends with a frame of this video and matches the reference photo.
 */
import { analysisConfig, ACTIONS, type Action, type AnalysisConfig } from './config.js';
import { descriptorDistance, interOcular, l2normalize, meanEar, mouthMetrics, nonRigidResidual } from './geometry.js';
import { DECODE_LIMITS, decodeImage, decodeVideo, FfmpegTimeoutError, resizeRgb, type RgbImage } from './media.js';
import type { LoadedModels } from './models.js';
import { detectFacesLocal, type DetectOpts, type FaceObs } from './detect.js';
import { decodeAudio, voiceActivity } from './voice.js';
import {
  computeBaseline,
  computeDeltas,
  detectEvents,
  matchSequence,
  strayEvents,
  type ActionEvent,
  type FrameSignals,
} from './sequence.js';
import { lightResponse, type LightResult } from './light.js';
import { identityThreshold, poseBucket } from './identity.js';
import { framePlan } from './frame-plan.js';

export type CheckName =
  | 'face_present'
  | 'single_face'
  | 'liveness_motion'
  | 'sequence'
  | 'identity_consistency'
  | 'final_frame_match'
  | 'reference_match'
  | 'sensor_noise'
  | 'voice_activity'
  | 'words'
  | 'light'
  | 'media';

export interface CheckResult {
  /** true/false; null when not applicable (e.g. no reference given) */
  passed: boolean | null;
  value: number | null;
  threshold: number | null;
  detail?: string;
}

export interface AnalyzeInput {
  video: Buffer;
  finalFrame: Buffer;
  reference?: Buffer;
  /**
   * readSeconds: the words are read in [0, readSeconds] of the recording (default:
   * cfg.voice.windowSeconds), unless wordsWindow says where. With a server timeline: `windows`
   * (seconds) per action, and `strict` makes any head turn or look-up outside them fail (the head is
   * neutral between actions); `light` is the screen-colour sequence the face must reflect.
   */
  challenge: {
    actions: string[];
    windows?: [number, number][];
    readSeconds?: number;
    words?: string[];
    wordsWindow?: [number, number];
    strict?: boolean;
    light?: { colours: string[]; changes: number[]; end: number };
  };
  /** Checks the spoken words in their window (the speech recogniser); absent → the words check is not applicable. */
  verifyWords?: WordsVerifier;
  deadlineMs: number;
  /** Whether a silent reading window fails the verdict (default: analysisConfig.voice.required). */
  requireVoice?: boolean;
}

export type WordsVerifier = (
  pcm: Int16Array,
  words: readonly string[],
  window: readonly [number, number],
) => Promise<{ passed: boolean; score: number | null; threshold: number; detail: string }>;

export interface AnalyzeResult {
  outcome: 'PASS' | 'FAIL';
  checks: Record<CheckName, CheckResult>;
  failed_checks: CheckName[];
  scores: Record<string, number | null> & { events?: never };
  events: ActionEvent[];
  models: { name: string; version: string }[];
  frames_analysed: number;
  duration_ms: number;
  timings: { decode_ms: number; inference_ms: number; inference_calls: number; total_ms: number };
}

export class AnalysisDeadlineError extends Error {
  constructor(
    public readonly stage: string,
    public readonly elapsedMs: number,
  ) {
    super(`analysis deadline exceeded during ${stage} after ${Math.round(elapsedMs)} ms`);
    this.name = 'AnalysisDeadlineError';
  }
}

export class InvalidChallengeError extends Error {}

type Detector = (img: RgbImage, o: { embed: boolean; supporting: boolean; iris?: boolean }) => Promise<FaceObs[]>;

/** Detection through the worker pool when there is one, else in this thread. */
function makeDetector(m: LoadedModels, cfg: AnalysisConfig, stats: { ms: number; calls: number }): Detector {
  return async (img, o) => {
    const opts: DetectOpts = { ...o, maxFaces: cfg.maxFacesPerFrame, minRelativeFaceWidth: cfg.minRelativeFaceWidth };
    const r = m.pool ? await m.pool.detect(img, opts) : await detectFacesLocal(m, img, opts);
    stats.ms += r.ms;
    stats.calls++;
    return r.faces;
  };
}

/** Map with bounded concurrency, preserving order; `check` runs after each completion. */
async function mapLimited<T, R>(
  xs: readonly T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
  check: () => void,
): Promise<R[]> {
  const out = new Array<R>(xs.length);
  let next = 0;
  const run = async () => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await fn(xs[i], i);
      // tfjs-node's ops settle without reaching the event loop: yield, or timers and I/O (the words
      // worker's answer, NATS, /metrics) wait for the whole pass and the words call times out
      await new Promise<void>((r) => setImmediate(r));
      check();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, xs.length)) }, run));
  return out;
}

function grey(img: RgbImage): Float32Array {
  const g = new Float32Array(img.width * img.height);
  for (let i = 0; i < g.length; i++) g[i] = 0.299 * img.data[i * 3] + 0.587 * img.data[i * 3 + 1] + 0.114 * img.data[i * 3 + 2];
  return g;
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

function meanEmbedding(es: number[][]): number[] {
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
function trackPrimary(perFrame: FaceObs[][]): void {
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

const check = (passed: boolean | null, value: number | null, threshold: number | null, detail?: string): CheckResult => ({
  passed,
  value,
  threshold,
  ...(detail ? { detail } : {}),
});

/**
 * Analyse one capture. Throws AnalysisDeadlineError when `deadlineMs` passes (no verdict: the
 * caller retries or gives up; a deadline is not the signer's failure) and InvalidChallengeError
 * for an unknown action.
 */
export async function analyzeCapture(
  models: LoadedModels,
  input: AnalyzeInput,
  cfg: AnalysisConfig = analysisConfig,
): Promise<AnalyzeResult> {
  const start = performance.now();
  const deadline = (stage: string) => {
    const el = performance.now() - start;
    if (el > input.deadlineMs) {
      const err = new AnalysisDeadlineError(stage, el);
      models.pool?.cancelQueued(err);
      throw err;
    }
  };
  for (const a of input.challenge.actions)
    if (!(ACTIONS as readonly string[]).includes(a)) throw new InvalidChallengeError(`unknown action: ${a}`);
  const actions = input.challenge.actions as Action[];
  const stats = { ms: 0, calls: 0 };
  const detect = makeDetector(models, cfg, stats);
  const parallel = models.pool ? models.pool.size * 2 : 1;

  // ---- decode
  const td = performance.now();
  const budget = Math.max(1, input.deadlineMs);
  const [video, finalImg, refImg, pcm] = await Promise.all([
    decodeVideo(input.video, { fps: cfg.sampling.fps, width: cfg.sampling.width, timeoutMs: budget }),
    decodeImage(input.finalFrame, 640, budget),
    input.reference ? decodeImage(input.reference, 640, budget) : Promise.resolve(null),
    decodeAudio(input.video, DECODE_LIMITS.maxSeconds, budget),
  ]).catch((e: unknown) => {
    if (e instanceof FfmpegTimeoutError) throw new AnalysisDeadlineError('decode', performance.now() - start);
    throw e;
  });
  const decodeMs = performance.now() - td;
  const readSeconds =
    input.challenge.readSeconds && input.challenge.readSeconds > 0 ? input.challenge.readSeconds : cfg.voice.windowSeconds;
  const wordsWindow = input.challenge.wordsWindow;
  const voice = voiceActivity(pcm, { ...cfg.voice, windowSeconds: wordsWindow ? wordsWindow[1] : readSeconds });
  // The recogniser runs beside the face passes (another process).
  const wordsCheck =
    input.verifyWords && input.challenge.words?.length && wordsWindow && pcm
      ? input.verifyWords(pcm, input.challenge.words, wordsWindow)
      : null;
  wordsCheck?.catch(() => undefined);
  const requireVoice = input.requireVoice ?? cfg.voice.required;
  deadline('decode');

  // ---- pass 1: mesh on every sampled frame; the descriptor and the iris where the plan says
  const plan = framePlan(video.times, input.challenge, cfg);
  const perFrame: FaceObs[][] = await mapLimited(
    video.frames,
    parallel,
    (f, i) => detect(f, { embed: plan.embed[i], supporting: false, iris: plan.iris[i] }),
    () => deadline('landmarks'),
  );
  trackPrimary(perFrame);
  const n = perFrame.length;
  const faceFrames = perFrame.map((f, i) => (f.length > 0 ? i : -1)).filter((i) => i >= 0);
  const facePresent = n > 0 ? faceFrames.length / n : 0;
  const singleFrac = faceFrames.length > 0 ? faceFrames.filter((i) => perFrame[i].length === 1).length / faceFrames.length : 0;

  const signals: FrameSignals[] = perFrame.map((faces, i) => {
    const f = faces[0];
    if (!f) return { t: video.times[i], yaw: null, pitch: null, ear: null, mouthWidth: null, cornerLift: null };
    const mm = mouthMetrics(f.mesh);
    return {
      t: video.times[i],
      yaw: f.yawDeg,
      pitch: f.pitchDeg,
      ear: plan.iris[i] ? meanEar(f.mesh) : null,
      mouthWidth: mm.widthRatio,
      cornerLift: mm.cornerLift,
    };
  });
  const baseline = computeBaseline(signals, cfg.baselineSeconds);
  const deltas = baseline ? computeDeltas(signals, baseline, cfg) : [];
  const events = baseline ? detectEvents(deltas, cfg) : [];
  const seq = matchSequence(actions, events, input.challenge.windows);
  const strays = input.challenge.strict && input.challenge.windows ? strayEvents(events, seq.matched) : [];

  // non-rigid motion relative to the first face frame, among frames meshed alike (the iris
  // refinement moves the eye contours: mixing the two would look like motion on a still photo)
  let motion = 0;
  const withIris = faceFrames.filter((i) => plan.iris[i]);
  const without = faceFrames.filter((i) => !plan.iris[i]);
  const alike = withIris.length >= without.length ? withIris : without;
  if (alike.length > 1) {
    const base = perFrame[alike[0]][0].mesh;
    for (const i of alike) motion = Math.max(motion, nonRigidResidual(base, perFrame[i][0].mesh));
  }
  // sensor noise: inter-frame variance of consecutive sampled frames
  const greys = video.frames.map(grey);
  const diffs: number[] = [];
  for (let i = 1; i < greys.length; i++) diffs.push(meanAbsDiff(greys[i - 1], greys[i]));
  const sortedDiffs = [...diffs].sort((a, b) => a - b);
  const noiseMad = sortedDiffs.length ? sortedDiffs[sortedDiffs.length >> 1] : 0;
  deadline('signals');

  // ---- identity on every analysed frame: each face frame's descriptor against the signer's own
  // baseline (near-neutral frames at the start), with a threshold for the pose it is seen at
  const near = faceFrames.filter((i) => poseBucket(deltas[i], cfg) === 'neutral');
  const embFrames = faceFrames.filter((i) => perFrame[i][0].embedding);
  const embOf = (i: number) => perFrame[i][0].embedding!;
  const baseFrames = (near.length >= 2 ? near : embFrames).filter((i) => perFrame[i][0].embedding).slice(0, 3);
  const baseEmb = baseFrames.length ? meanEmbedding(baseFrames.map(embOf)) : null;
  let identityMax: number | null = null;
  let identityWorst: { t: number; distance: number; threshold: number; pose: string } | null = null;
  let identityOver = 0;
  if (baseEmb) {
    identityMax = 0;
    for (const i of embFrames) {
      const pose = poseBucket(deltas[i], cfg);
      const threshold = identityThreshold(pose, cfg);
      const distance = descriptorDistance(baseEmb, embOf(i));
      if (distance > threshold) identityOver++;
      const ratio = distance / threshold;
      if (ratio > identityMax) {
        identityMax = ratio;
        identityWorst = { t: video.times[i], distance, threshold, pose };
      }
    }
  }
  const planned = faceFrames.filter((i) => plan.embed[i]);
  const identityCoverage = planned.length ? embFrames.length / planned.length : 0;
  // the video's identity for the reference: mean descriptor of the near-neutral frames
  const nearEmb = embFrames.filter((i) => near.includes(i));
  const videoEmb = embFrames.length ? meanEmbedding((nearEmb.length ? nearEmb : embFrames).map(embOf)) : null;
  const embeds = new Map<number, FaceObs>(embFrames.map((i) => [i, perFrame[i][0]]));
  const lastStart = n > 0 ? video.times[n - 1] - cfg.finalFrame.lastSeconds : 0;

  // ---- pass 2: the final frame (with the supporting antispoof/liveness models) and the reference
  const extra: RgbImage[] = [finalImg, ...(refImg ? [refImg] : [])];
  const pass2 = await mapLimited(
    extra,
    parallel,
    (img, k) => detect(img, { embed: true, supporting: k === 0 }),
    () => deadline('embeddings'),
  );
  // ---- final frame
  const finalFaces = pass2[0];
  const lastEmb = embFrames.filter((i) => video.times[i] >= lastStart).map((i) => embeds.get(i)!.embedding!);
  const finalDist =
    finalFaces.length === 1 && finalFaces[0].embedding && lastEmb.length
      ? Math.min(...lastEmb.map((e) => descriptorDistance(e, finalFaces[0].embedding!)))
      : null;
  const thumb = (img: RgbImage) => grey(resizeRgb(img, 64, 48));
  const finalThumb = thumb(finalImg);
  let finalNcc = -1;
  for (let i = 0; i < n; i++)
    if (video.times[i] >= lastStart) finalNcc = Math.max(finalNcc, ncc(finalThumb, thumb(video.frames[i])));

  // ---- reference
  let refFaces: FaceObs[] | null = null;
  let refDist: number | null = null;
  if (refImg) {
    refFaces = pass2[1];
    if (refFaces.length === 1 && refFaces[0].embedding && videoEmb) refDist = descriptorDistance(refFaces[0].embedding, videoEmb);
  }

  // ---- light: the skin must follow the issued screen colours
  let light: LightResult | null = null;
  if (input.challenge.light) {
    light = lightResponse({
      frames: video.frames,
      times: video.times,
      // near-neutral frames only: a turned head shows other skin under other shading, which moves
      // its colour as much as the screen does (a genuine capture with two turns scored 0.48)
      faces: perFrame.map((f, i) => (f[0] && poseBucket(deltas[i], cfg) === 'neutral' ? { mesh: f[0].mesh } : null)),
      colours: input.challenge.light.colours,
      changes: input.challenge.light.changes,
      end: input.challenge.light.end,
    });
  }
  const words = wordsCheck ? await wordsCheck : null;
  deadline('words');

  // ---- media: decoded whole, and not below the ceremony's quality floors
  const mf = cfg.media;
  const [srcW, srcH] = [video.sourceWidth, video.sourceHeight];
  const srcFps = video.sourceFrames !== null && video.decodedDurationS > 0 ? video.sourceFrames / video.decodedDurationS : null;
  const bps = video.decodedDurationS > 0 ? (input.video.length * 8) / video.decodedDurationS : 0;
  const mediaProblems = [
    ...(video.truncated ? ['the video runs past the decoding limit: only its start was analysed'] : []),
    ...(Math.min(srcW, srcH) < mf.minShortSide || Math.max(srcW, srcH) < mf.minLongSide
      ? [`${srcW}×${srcH} is under ${mf.minLongSide}×${mf.minShortSide}`]
      : []),
    ...(srcFps !== null && srcFps < mf.minFps ? [`${srcFps.toFixed(1)} frames per second, under ${mf.minFps}`] : []),
    ...(!video.truncated && bps < mf.minBitsPerPixelSecond * srcW * srcH
      ? [
          `${Math.round(bps / 1000)} kb/s, under ${Math.round((mf.minBitsPerPixelSecond * srcW * srcH) / 1000)} kb/s for ${srcW}×${srcH}`,
        ]
      : []),
  ];

  // ---- checks
  const c = cfg;
  const checks: Record<CheckName, CheckResult> = {
    face_present: check(
      facePresent >= c.facePresentMinFraction && finalFaces.length > 0,
      facePresent,
      c.facePresentMinFraction,
      finalFaces.length === 0 ? 'no face in the final frame' : undefined,
    ),
    single_face: check(
      faceFrames.length > 0 &&
        singleFrac >= c.singleFaceMinFraction &&
        finalFaces.length <= 1 &&
        (!refFaces || refFaces.length === 1),
      singleFrac,
      c.singleFaceMinFraction,
      `final frame faces: ${finalFaces.length}${refFaces ? `, reference faces: ${refFaces.length}` : ''}`,
    ),
    liveness_motion: check(motion >= c.livenessMotion.minResidual, motion, c.livenessMotion.minResidual),
    sequence: check(
      seq.ok && strays.length === 0,
      seq.matched.filter(Boolean).length,
      actions.length,
      `requested ${actions.join(',')}` +
        (input.challenge.windows
          ? ` in ${input.challenge.windows.map(([a, b]) => `${a.toFixed(1)}–${b.toFixed(1)}`).join(',')} s`
          : '') +
        `; detected ${events.map((e) => `${e.action}@${e.start.toFixed(1)}`).join(',') || 'none'}` +
        (strays.length ? `; outside the windows: ${strays.map((e) => `${e.action}@${e.start.toFixed(1)}`).join(',')}` : ''),
    ),
    identity_consistency: check(
      identityMax !== null && identityMax <= 1 && identityCoverage >= c.identity.minCoverage,
      identityMax,
      1,
      `distance / pose threshold, worst of ${embFrames.length} frames (${identityOver} over` +
        (identityWorst
          ? `; worst at ${identityWorst.t.toFixed(1)} s, ${identityWorst.pose}: ${identityWorst.distance.toFixed(3)} > ${identityWorst.threshold}`
          : '') +
        `); ${(identityCoverage * 100).toFixed(0)} % of the face frames planned for it described`,
    ),
    final_frame_match: check(
      finalDist !== null && finalDist <= c.finalFrame.maxDistance && finalNcc >= c.finalFrame.minNcc,
      finalNcc,
      c.finalFrame.minNcc,
      `descriptor distance ${finalDist === null ? 'n/a' : finalDist.toFixed(3)} (max ${c.finalFrame.maxDistance})`,
    ),
    reference_match: input.reference
      ? check(
          refDist !== null && refDist <= c.reference.maxDistance,
          refDist,
          c.reference.maxDistance,
          refFaces && refFaces.length !== 1 ? `reference faces: ${refFaces.length}` : undefined,
        )
      : check(null, null, c.reference.maxDistance, 'no reference given'),
    sensor_noise: check(noiseMad >= c.sensorNoise.minMeanAbsDiff, noiseMad, c.sensorNoise.minMeanAbsDiff),
    voice_activity: check(
      voice.hasAudio && voice.voicedSeconds >= c.voice.minVoicedSeconds,
      voice.voicedSeconds,
      c.voice.minVoicedSeconds,
      `${voice.hasAudio ? `voiced seconds in the first ${readSeconds} s` : 'no audio track'}${requireVoice ? '' : '; not required'}`,
    ),
    words: words
      ? check(words.passed, words.score, words.threshold, words.detail)
      : check(null, null, null, input.challenge.words?.length ? 'no recogniser or no words window' : 'no words issued'),
    media: check(
      mediaProblems.length === 0,
      video.decodedDurationS,
      DECODE_LIMITS.maxSeconds,
      mediaProblems.length ? mediaProblems.join('; ') : `decoded whole, ${srcW}×${srcH}`,
    ),
    light: light
      ? check(
          light.passed,
          light.score,
          light.threshold,
          `${light.detail}; lag ${light.lagS.toFixed(2)} s, null rank ${light.nullRank.toFixed(3)}, amplitude ${light.amplitude.toFixed(4)}`,
        )
      : check(null, null, null, 'no light sequence issued'),
  };
  const failed = (Object.keys(checks) as CheckName[]).filter(
    (k) => checks[k].passed === false && (k !== 'voice_activity' || requireVoice),
  );
  const supporting = finalFaces.slice(0, 1);
  const avg = (xs: (number | undefined)[]) => {
    const v = xs.filter((x): x is number => typeof x === 'number');
    return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
  };
  const range = (k: 'left' | 'up') => {
    const v = deltas.map((d) => d[k]).filter((x): x is number => x !== null);
    return v.length ? [Math.min(...v), Math.max(...v)] : [null, null];
  };
  const [leftMin, leftMax] = range('left');
  const [upMin, upMax] = range('up');
  const earDrops = deltas.map((d) => d.earDrop).filter((x): x is number => x !== null);
  const total = performance.now() - start;
  return {
    outcome: failed.length === 0 ? 'PASS' : 'FAIL',
    checks,
    failed_checks: failed,
    scores: {
      face_present_fraction: facePresent,
      single_face_fraction: singleFrac,
      motion_residual_max: motion,
      sensor_noise_median_mad: noiseMad,
      identity_max_distance: identityMax,
      final_frame_distance: finalDist,
      final_frame_ncc: finalNcc,
      reference_distance: refDist,
      turn_left_delta_max: leftMax,
      turn_right_delta_max: leftMin === null ? null : -leftMin,
      look_up_delta_max: upMax,
      look_down_delta_max: upMin === null ? null : -upMin,
      ear_drop_max: earDrops.length ? Math.max(...earDrops) : null,
      baseline_ear: baseline?.ear ?? null,
      baseline_interocular_px: faceFrames.length ? interOcular(perFrame[faceFrames[0]][0].mesh) : null,
      voiced_seconds: voice.voicedSeconds,
      audio_noise_floor_db: voice.noiseFloorDb,
      antispoof_real_mean: avg(supporting.map((f) => f.real)),
      liveness_live_mean: avg(supporting.map((f) => f.live)),
    },
    events,
    models: models.models.map((x) => ({ name: x.name, version: x.version })),
    frames_analysed: n,
    duration_ms: Math.round(total),
    timings: {
      decode_ms: Math.round(decodeMs),
      inference_ms: Math.round(stats.ms),
      inference_calls: stats.calls,
      total_ms: Math.round(total),
    },
  };
}
