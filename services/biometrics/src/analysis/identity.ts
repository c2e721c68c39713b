/**
 * Pose-aware identity thresholds: a descriptor of a face turned away or looking up lies further
 * from the signer's frontal baseline than a frontal one, so each analysed frame is judged against
 * the threshold measured for its pose (analysisConfig.identity.poseMaxDistance).
 */
import type { AnalysisConfig } from './config.js';
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
