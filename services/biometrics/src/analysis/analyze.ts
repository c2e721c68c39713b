/**
 * analyzeCapture: decide whether a ceremony capture is live, did the challenge in order, stays one
 * person, ends with a frame of this video and matches the reference photo.
 */
import { analysisConfig, ACTIONS, type Action, type AnalysisConfig } from './config.js';
import { descriptorDistance } from './geometry.js';
import { decodeVideo, FfmpegTimeoutError, resizeRgb, type DecodedVideo, type RgbImage } from './media.js';
import type { LoadedModels } from './models.js';
import { makeDetector, type FaceObs } from './detect.js';
import { voiceActivity } from './voice.js';
import { computeBaseline, computeDeltas, detectEvents, matchSequence, strayEvents } from './sequence.js';
import { facesAt, flashWindow, lightResponse, type LightResult } from './light.js';
import { frameIdentity } from './identity.js';
import { analysisScores, mediaFloorProblems } from './scores.js';
import { framePlan, type FramePlan } from './frame-plan.js';
import { decodeAndDetect } from './passes.js';
import { frameSignals, grey, motionResidual, ncc, trackPrimary } from './frame-ops.js';
import { verdictChecks, type MatchMeasures, type MediaMeasures } from './verdict-checks.js';
import { AnalysisDeadlineError, InvalidChallengeError, type AnalyzeInput, type AnalyzeResult } from './analyze.types.js';

export * from './analyze.types.js';

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
  const deadline = deadlineOf(models, input, start);
  const actions = challengedActions(input);
  const stats = { ms: 0, calls: 0, detected: 0 };

  // ---- decode, with pass 1 on the frames as they arrive and pass 2 once its stills are decoded
  const td = performance.now();
  const decoded = await decodeAndDetect(models, input, cfg, {
    detect: makeDetector(models, cfg, stats),
    deadline,
    onDecodeTimeout: () => new AnalysisDeadlineError('decode', performance.now() - start),
  });
  const decodeMs = performance.now() - td;
  const { video, pcm } = decoded;
  // the flash segment again at the capture's own rate, while the frame pass runs (lightOf reads it)
  const flashFrames = flashDecode(input, video, cfg).catch((e: unknown) => {
    throw e instanceof FfmpegTimeoutError ? new AnalysisDeadlineError('flash decode', performance.now() - start) : e;
  });
  flashFrames.catch(() => undefined); // awaited by the light check; a failure must not go unhandled before
  const heard = startListening(input, pcm, cfg);
  deadline('decode');

  const perFrame: FaceObs[][] = await decoded.pass1;
  const framesDoneMs = performance.now() - start;
  const plan = framePlan(video.times, input.challenge, cfg);
  const face = faceMeasures(perFrame, video.times, plan, actions, input, decoded.noise.value(), cfg);
  deadline('signals');

  const match = matchMeasures(perFrame, face, video, plan, await decoded.pass2, decoded, cfg);
  const light = lightOf(input, video, perFrame, models, await flashFrames);
  const tw = performance.now();
  const words = heard.words ? await heard.words : null;
  const wordsWaitMs = performance.now() - tw;
  deadline('words');

  const media: MediaMeasures = {
    ...heard,
    words,
    mediaProblems: mediaFloorProblems(video, input.video.length, cfg),
    decodedDurationS: video.decodedDurationS,
    source: [video.sourceWidth, video.sourceHeight],
    light,
  };
  const { checks, failed } = verdictChecks(input, face, match, media, cfg);
  const total = performance.now() - start;
  return {
    outcome: failed.length === 0 ? 'PASS' : 'FAIL',
    checks,
    failed_checks: failed,
    scores: analysisScores({
      ...face,
      ...match,
      deltas: face.deltas,
      baseline: face.baseline,
      firstFace: face.faceFrames.length ? perFrame[face.faceFrames[0]][0] : null,
      voice: heard.voice,
    }),
    events: face.events,
    models: models.models.map((x) => ({ name: x.name, version: x.version })),
    frames_analysed: perFrame.length,
    flash: light?.flash ? { passed: light.flash.passed, reason: light.flash.reason } : null,
    duration_ms: Math.round(total),
    timings: {
      decode_ms: Math.round(decodeMs),
      inference_ms: Math.round(stats.ms),
      inference_calls: stats.calls,
      detector_calls: stats.detected,
      frames_done_ms: Math.round(framesDoneMs),
      words_wait_ms: Math.round(wordsWaitMs),
      total_ms: Math.round(total),
    },
  };
}

/** Throws (and cancels the pool's queued frames) once the analysis is past `input.deadlineMs`. */
function deadlineOf(models: LoadedModels, input: AnalyzeInput, start: number) {
  return (stage: string) => {
    const el = performance.now() - start;
    if (el > input.deadlineMs) {
      const err = new AnalysisDeadlineError(stage, el);
      models.pool?.cancelQueued(err);
      throw err;
    }
  };
}

function challengedActions(input: AnalyzeInput): Action[] {
  for (const a of input.challenge.actions)
    if (!(ACTIONS as readonly string[]).includes(a)) throw new InvalidChallengeError(`unknown action: ${a}`);
  return input.challenge.actions as Action[];
}

/** Voice activity in the reading window, and the words recogniser started beside the face passes (another process). */
function startListening(input: AnalyzeInput, pcm: Int16Array | null, cfg: AnalysisConfig) {
  const readSeconds =
    input.challenge.readSeconds && input.challenge.readSeconds > 0 ? input.challenge.readSeconds : cfg.voice.windowSeconds;
  const wordsWindow = input.challenge.wordsWindow;
  const voice = voiceActivity(pcm, { ...cfg.voice, windowSeconds: wordsWindow ? wordsWindow[1] : readSeconds });
  const words =
    input.verifyWords && input.challenge.words?.length && wordsWindow && pcm
      ? input.verifyWords(pcm, input.challenge.words, wordsWindow)
      : null;
  words?.catch(() => undefined);
  return { voice, readSeconds, words, requireVoice: input.requireVoice ?? cfg.voice.required };
}

/** The face over the frames: presence, count, head and face signals, the actions found, motion. */
function faceMeasures(
  perFrame: FaceObs[][],
  times: readonly number[],
  plan: FramePlan,
  actions: Action[],
  input: AnalyzeInput,
  noiseMad: number,
  cfg: AnalysisConfig,
) {
  trackPrimary(perFrame);
  const n = perFrame.length;
  const faceFrames = perFrame.map((f, i) => (f.length > 0 ? i : -1)).filter((i) => i >= 0);
  const facePresent = n > 0 ? faceFrames.length / n : 0;
  const singleFrac = faceFrames.length > 0 ? faceFrames.filter((i) => perFrame[i].length === 1).length / faceFrames.length : 0;
  const signals = frameSignals(perFrame, times, plan.iris);
  const baseline = computeBaseline(signals, cfg.baselineSeconds);
  const deltas = baseline ? computeDeltas(signals, baseline, cfg) : [];
  const events = baseline ? detectEvents(deltas, cfg) : [];
  const seq = matchSequence(actions, events, input.challenge.windows);
  const windows = input.challenge.windows;
  const strays = input.challenge.strict && windows ? strayEvents(events, seq.matched, { actions, windows }) : [];
  const motion = motionResidual(perFrame, faceFrames, plan.iris);
  return { facePresent, singleFrac, faceFrames, baseline, deltas, events, seq, strays, motion, noiseMad, actions };
}

/** Identity on every described frame (identity.ts), the final frame against the last seconds, the reference. */
function matchMeasures(
  perFrame: FaceObs[][],
  face: ReturnType<typeof faceMeasures>,
  video: DecodedVideo,
  plan: FramePlan,
  pass2Faces: FaceObs[][],
  stills: { finalImg: RgbImage },
  cfg: AnalysisConfig,
): MatchMeasures {
  const n = perFrame.length;
  const id = frameIdentity(perFrame, face.faceFrames, face.deltas, video.times, plan.embed, cfg);
  const lastStart = n > 0 ? video.times[n - 1] - cfg.finalFrame.lastSeconds : 0;
  const finalFaces = pass2Faces[0]!;
  // the final frame against every description of the last seconds, of either crop (the nearest counts)
  const lastEmb = id.described.filter((i) => video.times[i] >= lastStart).map((i) => perFrame[i][0].embedding!);
  const finalDist =
    finalFaces.length === 1 && finalFaces[0].embedding && lastEmb.length
      ? Math.min(...lastEmb.map((e) => descriptorDistance(e, finalFaces[0].embedding!)))
      : null;
  const thumb = (img: RgbImage) => grey(resizeRgb(img, 64, 48));
  const finalThumb = thumb(stills.finalImg);
  let finalNcc = -1;
  for (let i = 0; i < n; i++)
    if (video.times[i] >= lastStart) finalNcc = Math.max(finalNcc, ncc(finalThumb, thumb(video.frames[i])));
  const refFaces = pass2Faces.length > 1 ? pass2Faces[1]! : null;
  const refDist =
    refFaces && refFaces.length === 1 && refFaces[0].embedding && id.videoEmb
      ? descriptorDistance(refFaces[0].embedding, id.videoEmb)
      : null;
  const { identityMax, identityOver, identityCoverage, identityWorst } = id;
  const compared = id.embFrames.length;
  return {
    identityMax,
    identityOver,
    identityCoverage,
    identityWorst,
    compared,
    finalFaces,
    finalDist,
    finalNcc,
    refFaces,
    refDist,
  };
}

/**
 * The flash segment's window (light.ts flashWindow) decoded at the capture's own frame rate (its
 * decoded frames over its length, at most `flash.denseMaxFps`), for the flash check: at the 8
 * sampled frames a second a 250 ms flash falls on two frames, too few to tell the issued flashes
 * from the other sequences on every genuine capture. Null when no flashes were issued, or the
 * capture's rate is not above the sampling's.
 */
async function flashDecode(input: AnalyzeInput, video: DecodedVideo, cfg: AnalysisConfig): Promise<DecodedVideo | null> {
  const l = input.challenge.light;
  const window = l ? flashWindow(l, cfg.flash) : null;
  const fps = flashRate(video, cfg);
  if (!window || fps === null) return null;
  return decodeVideo(input.video, { fps, width: cfg.sampling.width, timeoutMs: Math.max(1, input.deadlineMs), window });
}

/**
 * The rate the flash window is decoded at: the frames ffmpeg actually decoded over the seconds
 * sampled (never the container's stated rate, which the client writes), at most
 * `flash.denseMaxFps`; null when that is not above the sampling's rate (the sampled frames serve).
 */
export function flashRate(
  video: Pick<DecodedVideo, 'sourceFrames' | 'decodedDurationS'>,
  cfg: Pick<AnalysisConfig, 'flash' | 'sampling'>,
): number | null {
  if (!video.sourceFrames || video.decodedDurationS <= 0) return null;
  const fps = Math.min(cfg.flash.denseMaxFps, Math.round(video.sourceFrames / video.decodedDurationS));
  return fps > cfg.sampling.fps ? fps : null;
}

/** The light check (light.ts): the skin must follow the issued screen colours. Null when none were issued. */
function lightOf(
  input: AnalyzeInput,
  video: DecodedVideo,
  perFrame: FaceObs[][],
  models: LoadedModels,
  flash: DecodedVideo | null,
): LightResult | null {
  const l = input.challenge.light;
  if (!l) return null;
  const faces = perFrame.map((f) => (f[0] ? { mesh: f[0].mesh, box: f[0].box } : null));
  return lightResponse({
    frames: video.frames,
    times: video.times,
    faces,
    colours: l.colours,
    changes: l.changes,
    end: l.end,
    flash: l.flash,
    // the window's frames take the face of the sampled frames around them (≤ 125 ms away), interpolated
    flashFrames: flash
      ? { frames: flash.frames, times: flash.times, faces: flash.times.map((t) => facesAt(video.times, faces, t)) }
      : undefined,
    triangles: models.human.faceTriangulation,
  });
}
