/**
 * The verdict's checks from what the analysis measured (analyze.ts): one function per group, each
 * a pure mapping of measurements to `CheckResult`s against the configured thresholds.
 */
import type { Action, AnalysisConfig } from './config.js';
import type { FaceObs } from './detect.js';
import type { LightResult } from './light.js';
import { DECODE_LIMITS } from './media.js';
import type { ActionEvent } from './sequence.js';
import type { VoiceResult } from './voice.js';
import type { AnalyzeInput, CheckName, CheckResult, WordsVerifier } from './analyze.types.js';

export const check = (passed: boolean | null, value: number | null, threshold: number | null, detail?: string): CheckResult => ({
  passed,
  value,
  threshold,
  ...(detail ? { detail } : {}),
});

/** The face's presence, count and motion over the frames, and the challenged actions. */
export interface FaceMeasures {
  facePresent: number;
  singleFrac: number;
  faceFrames: readonly number[];
  motion: number;
  noiseMad: number;
  actions: readonly Action[];
  seq: { ok: boolean; matched: readonly (ActionEvent | null)[] };
  events: readonly ActionEvent[];
  strays: readonly ActionEvent[];
}

/** Identity over the frames, the final frame and the reference photo. */
export interface MatchMeasures {
  identityMax: number | null;
  identityOver: number;
  identityCoverage: number;
  identityWorst: { t: number; distance: number; threshold: number; pose: string } | null;
  /** frames whose descriptors were compared with the baseline */
  compared: number;
  finalFaces: readonly FaceObs[];
  finalDist: number | null;
  finalNcc: number;
  refFaces: readonly FaceObs[] | null;
  refDist: number | null;
}

/** What was heard and what was decoded. */
export interface MediaMeasures {
  voice: Pick<VoiceResult, 'hasAudio' | 'voicedSeconds'>;
  readSeconds: number;
  requireVoice: boolean;
  words: Awaited<ReturnType<WordsVerifier>> | null;
  mediaProblems: readonly string[];
  decodedDurationS: number;
  source: readonly [number, number];
  light: LightResult | null;
}

const at = (e: ActionEvent) => `${e.action}@${e.start.toFixed(1)}`;

function faceChecks(
  m: FaceMeasures,
  finalFaces: readonly FaceObs[],
  refFaces: readonly FaceObs[] | null,
  challenge: AnalyzeInput['challenge'],
  c: AnalysisConfig,
) {
  return {
    face_present: check(
      m.facePresent >= c.facePresentMinFraction && finalFaces.length > 0,
      m.facePresent,
      c.facePresentMinFraction,
      finalFaces.length === 0 ? 'no face in the final frame' : undefined,
    ),
    single_face: check(
      m.faceFrames.length > 0 &&
        m.singleFrac >= c.singleFaceMinFraction &&
        finalFaces.length <= 1 &&
        (!refFaces || refFaces.length === 1),
      m.singleFrac,
      c.singleFaceMinFraction,
      `final frame faces: ${finalFaces.length}${refFaces ? `, reference faces: ${refFaces.length}` : ''}`,
    ),
    liveness_motion: check(m.motion >= c.livenessMotion.minResidual, m.motion, c.livenessMotion.minResidual),
    sequence: check(
      m.seq.ok && m.strays.length === 0,
      m.seq.matched.filter(Boolean).length,
      m.actions.length,
      `requested ${m.actions.join(',')}` +
        (challenge.windows ? ` in ${challenge.windows.map(([a, b]) => `${a.toFixed(1)}–${b.toFixed(1)}`).join(',')} s` : '') +
        `; detected ${m.events.map(at).join(',') || 'none'}` +
        (m.strays.length ? `; outside the windows: ${m.strays.map(at).join(',')}` : ''),
    ),
    sensor_noise: check(m.noiseMad >= c.sensorNoise.minMeanAbsDiff, m.noiseMad, c.sensorNoise.minMeanAbsDiff),
  };
}

function matchChecks(x: MatchMeasures, hasReference: boolean, c: AnalysisConfig) {
  const w = x.identityWorst;
  return {
    identity_consistency: check(
      x.identityMax !== null && x.identityMax <= 1 && x.identityCoverage >= c.identity.minCoverage,
      x.identityMax,
      1,
      `distance / pose threshold, worst of ${x.compared} frames (${x.identityOver} over` +
        (w ? `; worst at ${w.t.toFixed(1)} s, ${w.pose}: ${w.distance.toFixed(3)} > ${w.threshold}` : '') +
        `); ${(x.identityCoverage * 100).toFixed(0)} % of the face frames planned for it described`,
    ),
    final_frame_match: check(
      x.finalDist !== null && x.finalDist <= c.finalFrame.maxDistance && x.finalNcc >= c.finalFrame.minNcc,
      x.finalNcc,
      c.finalFrame.minNcc,
      `descriptor distance ${x.finalDist === null ? 'n/a' : x.finalDist.toFixed(3)} (max ${c.finalFrame.maxDistance})`,
    ),
    reference_match: hasReference
      ? check(
          x.refDist !== null && x.refDist <= c.reference.maxDistance,
          x.refDist,
          c.reference.maxDistance,
          x.refFaces && x.refFaces.length !== 1 ? `reference faces: ${x.refFaces.length}` : undefined,
        )
      : check(null, null, c.reference.maxDistance, 'no reference given'),
  };
}

function mediaChecks(x: MediaMeasures, wordsIssued: boolean, c: AnalysisConfig) {
  const l = x.light;
  return {
    voice_activity: check(
      x.voice.hasAudio && x.voice.voicedSeconds >= c.voice.minVoicedSeconds,
      x.voice.voicedSeconds,
      c.voice.minVoicedSeconds,
      `${x.voice.hasAudio ? `voiced seconds in the first ${x.readSeconds} s` : 'no audio track'}${x.requireVoice ? '' : '; not required'}`,
    ),
    words: x.words
      ? check(x.words.passed, x.words.score, x.words.threshold, x.words.detail)
      : check(null, null, null, wordsIssued ? 'no recogniser or no words window' : 'no words issued'),
    media: check(
      x.mediaProblems.length === 0,
      x.decodedDurationS,
      DECODE_LIMITS.maxSeconds,
      x.mediaProblems.length ? x.mediaProblems.join('; ') : `decoded whole, ${x.source[0]}×${x.source[1]}`,
    ),
    light: l
      ? check(
          l.passed,
          l.score,
          l.threshold,
          `${l.detail}; lag ${l.lagS.toFixed(2)} s, null rank ${l.nullRank.toFixed(3)}, amplitude ${l.amplitude.toFixed(4)}`,
        )
      : check(null, null, null, 'no light sequence issued'),
  };
}

/** Every check of the verdict, and the ones that failed it (a silent reading only when voice is required). */
export function verdictChecks(
  input: Pick<AnalyzeInput, 'challenge' | 'reference'>,
  face: FaceMeasures,
  match: MatchMeasures,
  media: MediaMeasures,
  cfg: AnalysisConfig,
): { checks: Record<CheckName, CheckResult>; failed: CheckName[] } {
  const f = faceChecks(face, match.finalFaces, match.refFaces, input.challenge, cfg);
  const x = matchChecks(match, !!input.reference, cfg);
  const m = mediaChecks(media, !!input.challenge.words?.length, cfg);
  // in the order the verdict has always listed them (failed_checks follows it)
  const checks: Record<CheckName, CheckResult> = {
    face_present: f.face_present,
    single_face: f.single_face,
    liveness_motion: f.liveness_motion,
    sequence: f.sequence,
    identity_consistency: x.identity_consistency,
    final_frame_match: x.final_frame_match,
    reference_match: x.reference_match,
    sensor_noise: f.sensor_noise,
    voice_activity: m.voice_activity,
    words: m.words,
    media: m.media,
    light: m.light,
  };
  const failed = (Object.keys(checks) as CheckName[]).filter(
    (k) => checks[k].passed === false && (k !== 'voice_activity' || media.requireVoice),
  );
  return { checks, failed };
}
