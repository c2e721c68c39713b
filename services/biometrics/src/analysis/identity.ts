/**
 * Pose-aware identity thresholds: a descriptor of a face turned away or looking up lies further
 * from the signer's frontal baseline than a frontal one, so each analysed frame is judged against
 * the threshold measured for its pose (analysisConfig.identity.poseMaxDistance).
 */
import type { AnalysisConfig } from './config.js';
import type { FaceObs } from './detect.js';
import { meanEmbedding } from './frame-ops.js';
import { descriptorDistance } from './geometry.js';
import type { FrameDeltas } from './sequence.js';

export type PoseBucket = 'neutral' | 'turned' | 'up';

/** The pose a frame is seen at, from its change against the signer's baseline (Human degrees). */
export function poseBucket(d: Pick<FrameDeltas, 'left' | 'up'> | undefined, cfg: AnalysisConfig): PoseBucket {
  if (!d || d.left === null || d.up === null) return 'neutral';
  const turn = Math.abs(d.left);
  const up = Math.abs(d.up);
  if (turn < cfg.identity.maxPoseDeg && up < cfg.identity.maxPoseDeg) return 'neutral';
  return turn >= up ? 'turned' : 'up';
}

export function identityThreshold(pose: PoseBucket, cfg: AnalysisConfig): number {
  return cfg.identity.poseMaxDistance[pose];
}

/**
 * Identity on every described frame of one crop (oneCrop): each face frame's descriptor against the
 * signer's own baseline (near-neutral frames at the start), with the threshold of the pose it is seen at.
 * `identityMax` is the worst distance ÷ threshold (> 1 fails); coverage counts the frames the
 * frame plan asked a description for. `videoEmb` (mean descriptor of the near-neutral frames) is
 * the video's identity for the reference photo.
 */
export function frameIdentity(
  perFrame: readonly (readonly FaceObs[])[],
  faceFrames: readonly number[],
  deltas: readonly FrameDeltas[],
  times: readonly number[],
  planned: readonly boolean[],
  cfg: AnalysisConfig,
) {
  const near = faceFrames.filter((i) => poseBucket(deltas[i], cfg) === 'neutral');
  const described = faceFrames.filter((i) => perFrame[i][0].embedding);
  const embFrames = oneCrop(perFrame, described);
  const embOf = (i: number) => perFrame[i][0].embedding!;
  const baseFrames = (near.length >= 2 ? near : embFrames).filter((i) => embFrames.includes(i)).slice(0, 3);
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
        identityWorst = { t: times[i], distance, threshold, pose };
      }
    }
  }
  const plannedFrames = faceFrames.filter((i) => planned[i]);
  const identityCoverage = plannedFrames.length ? described.length / plannedFrames.length : 0;
  const nearEmb = embFrames.filter((i) => near.includes(i));
  const videoEmb = embFrames.length ? meanEmbedding((nearEmb.length ? nearEmb : embFrames).map(embOf)) : null;
  return { embFrames, described, identityMax, identityWorst, identityOver, identityCoverage, videoEmb };
}

/**
 * The described frames of one crop: those meshed in tracked boxes when they are at least half (the
 * frame plan describes tracked frames; the last seconds' and a lost track's are the detector's),
 * else the detector's. Human's descriptor of one face differs between a detector box and a tracked
 * one by far more than between two frames of one kind (about 0.15 on every distance when they
 * alternated), so the signer's baseline and every frame compared with it are of one kind.
 */
export function oneCrop(perFrame: readonly (readonly FaceObs[])[], described: readonly number[]): number[] {
  const tracked = described.filter((i) => perFrame[i][0].tracked === true);
  return tracked.length * 2 >= described.length && tracked.length > 0
    ? tracked
    : described.filter((i) => perFrame[i][0].tracked !== true);
}
