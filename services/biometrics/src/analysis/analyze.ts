/**
 * analyzeCapture: decide whether a ceremony capture is live, did the challenge in order, stays one
 * person, ends with a frame of this video and matches the reference photo.
 */
import { analysisConfig, ACTIONS, type Action, type AnalysisConfig } from './config.js';
import { descriptorDistance } from './geometry.js';
import { DECODE_LIMITS, resizeRgb, type RgbImage } from './media.js';
import type { LoadedModels } from './models.js';
import { makeDetector, nextCapture, type FaceObs } from './detect.js';
import { voiceActivity } from './voice.js';
import { computeBaseline, computeDeltas, detectEvents, matchSequence, strayEvents } from './sequence.js';
import { lightResponse, type LightResult } from './light.js';
import { frameIdentity } from './identity.js';
import { analysisScores, mediaFloorProblems } from './scores.js';
import { framePlan } from './frame-plan.js';
import { decodeAndDetect } from './passes.js';
import { frameSignals, grey, motionResidual, ncc, trackPrimary } from './frame-ops.js';
import {
  AnalysisDeadlineError,
  InvalidChallengeError,
  type AnalyzeInput,
  type AnalyzeResult,
  type CheckName,
  type CheckResult,
} from './analyze.types.js';

export * from './analyze.types.js';

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
  const stats = { ms: 0, calls: 0, detected: 0 };
  const detect = makeDetector(models, cfg, stats);

  // ---- decode, with pass 1 on the frames as they arrive and pass 2 once its stills are decoded
  const td = performance.now();
  const { video, finalImg, refImg, pcm, noise, pass1, pass2 } = await decodeAndDetect(models, input, cfg, {
    detect,
    capture: nextCapture(),
    deadline,
    onDecodeTimeout: () => new AnalysisDeadlineError('decode', performance.now() - start),
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

  const perFrame: FaceObs[][] = await pass1;
  const framesDoneMs = performance.now() - start;
  const plan = framePlan(video.times, input.challenge, cfg);
  trackPrimary(perFrame);
  const n = perFrame.length;
  const faceFrames = perFrame.map((f, i) => (f.length > 0 ? i : -1)).filter((i) => i >= 0);
  const facePresent = n > 0 ? faceFrames.length / n : 0;
  const singleFrac = faceFrames.length > 0 ? faceFrames.filter((i) => perFrame[i].length === 1).length / faceFrames.length : 0;

  const signals = frameSignals(perFrame, video.times, plan.iris);
  const baseline = computeBaseline(signals, cfg.baselineSeconds);
  const deltas = baseline ? computeDeltas(signals, baseline, cfg) : [];
  const events = baseline ? detectEvents(deltas, cfg) : [];
  const seq = matchSequence(actions, events, input.challenge.windows);
  const windows = input.challenge.windows;
  const strays = input.challenge.strict && windows ? strayEvents(events, seq.matched, { actions, windows }) : [];

  const motion = motionResidual(perFrame, faceFrames, plan.iris);
  const noiseMad = noise.value();
  deadline('signals');

  // ---- identity on every analysed frame (identity.ts)
  const { embFrames, identityMax, identityWorst, identityOver, identityCoverage, videoEmb } = frameIdentity(
    perFrame,
    faceFrames,
    deltas,
    video.times,
    plan.embed,
    cfg,
  );
  const embeds = new Map<number, FaceObs>(embFrames.map((i) => [i, perFrame[i][0]]));
  const lastStart = n > 0 ? video.times[n - 1] - cfg.finalFrame.lastSeconds : 0;

  const pass2Faces = await pass2;
  // ---- final frame
  const finalFaces = pass2Faces[0]!;
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
    refFaces = pass2Faces[1]!;
    if (refFaces.length === 1 && refFaces[0].embedding && videoEmb) refDist = descriptorDistance(refFaces[0].embedding, videoEmb);
  }

  // ---- light: the skin must follow the issued screen colours
  let light: LightResult | null = null;
  if (input.challenge.light) {
    light = lightResponse({
      frames: video.frames,
      times: video.times,
      faces: perFrame.map((f) => (f[0] ? { mesh: f[0].mesh, box: f[0].box } : null)),
      colours: input.challenge.light.colours,
      changes: input.challenge.light.changes,
      end: input.challenge.light.end,
      flash: input.challenge.light.flash,
      triangles: models.human.faceTriangulation,
    });
  }
  const tw = performance.now();
  const words = wordsCheck ? await wordsCheck : null;
  const wordsWaitMs = performance.now() - tw;
  deadline('words');

  // ---- media: decoded whole, and not below the ceremony's quality floors
  const [srcW, srcH] = [video.sourceWidth, video.sourceHeight];
  const mediaProblems = mediaFloorProblems(video, input.video.length, cfg);

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
  const total = performance.now() - start;
  return {
    outcome: failed.length === 0 ? 'PASS' : 'FAIL',
    checks,
    failed_checks: failed,
    scores: analysisScores({
      facePresent,
      singleFrac,
      motion,
      noiseMad,
      identityMax,
      finalDist,
      finalNcc,
      refDist,
      deltas,
      baseline,
      firstFace: faceFrames.length ? perFrame[faceFrames[0]][0] : null,
      voice,
      finalFaces,
    }),
    events,
    models: models.models.map((x) => ({ name: x.name, version: x.version })),
    frames_analysed: n,
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
