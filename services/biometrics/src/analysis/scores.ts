/**
 * The verdict's numbers that are not checks: the media quality floors measured on what was
 * decoded, and the per-capture scores kept with the verdict (analyze.ts).
 */
import type { AnalysisConfig } from './config.js';
import type { FaceObs } from './detect.js';
import { interOcular } from './geometry.js';
import type { DecodedVideo } from './media.js';
import type { Baseline, FrameDeltas } from './sequence.js';
import type { VoiceResult } from './voice.js';

/** What keeps the video under the ceremony's quality floors (empty: none). */
export function mediaFloorProblems(
  video: Pick<DecodedVideo, 'sourceWidth' | 'sourceHeight' | 'sourceFrames' | 'decodedDurationS' | 'truncated'>,
  bytes: number,
  cfg: Pick<AnalysisConfig, 'media'>,
): string[] {
  const mf = cfg.media;
  const [srcW, srcH] = [video.sourceWidth, video.sourceHeight];
  const srcFps = video.sourceFrames !== null && video.decodedDurationS > 0 ? video.sourceFrames / video.decodedDurationS : null;
  const bps = video.decodedDurationS > 0 ? (bytes * 8) / video.decodedDurationS : 0;
  return [
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
}

export interface ScoreInputs {
  facePresent: number;
  singleFrac: number;
  motion: number;
  noiseMad: number;
  identityMax: number | null;
  finalDist: number | null;
  finalNcc: number;
  refDist: number | null;
  deltas: readonly FrameDeltas[];
  baseline: Baseline | null;
  firstFace: FaceObs | null;
  voice: Pick<VoiceResult, 'voicedSeconds' | 'noiseFloorDb'>;
  finalFaces: readonly FaceObs[];
}

export function analysisScores(x: ScoreInputs): Record<string, number | null> {
  const supporting = x.finalFaces.slice(0, 1);
  const avg = (xs: (number | undefined)[]) => {
    const v = xs.filter((y): y is number => typeof y === 'number');
    return v.length ? v.reduce((s, y) => s + y, 0) / v.length : null;
  };
  const range = (k: 'left' | 'up') => {
    const v = x.deltas.map((d) => d[k]).filter((y): y is number => y !== null);
    return v.length ? [Math.min(...v), Math.max(...v)] : [null, null];
  };
  const [leftMin, leftMax] = range('left');
  const [upMin, upMax] = range('up');
  const earDrops = x.deltas.map((d) => d.earDrop).filter((y): y is number => y !== null);
  return {
    face_present_fraction: x.facePresent,
    single_face_fraction: x.singleFrac,
    motion_residual_max: x.motion,
    sensor_noise_median_mad: x.noiseMad,
    identity_max_distance: x.identityMax,
    final_frame_distance: x.finalDist,
    final_frame_ncc: x.finalNcc,
    reference_distance: x.refDist,
    turn_left_delta_max: leftMax,
    turn_right_delta_max: leftMin === null ? null : -leftMin,
    look_up_delta_max: upMax,
    look_down_delta_max: upMin === null ? null : -upMin,
    ear_drop_max: earDrops.length ? Math.max(...earDrops) : null,
    baseline_ear: x.baseline?.ear ?? null,
    baseline_interocular_px: x.firstFace ? interOcular(x.firstFace.mesh) : null,
    voiced_seconds: x.voice.voicedSeconds,
    audio_noise_floor_db: x.voice.noiseFloorDb,
    antispoof_real_mean: avg(supporting.map((f) => f.real)),
    liveness_live_mean: avg(supporting.map((f) => f.live)),
  };
}
