/**
 * What a signer should do differently after a failed verdict, from the checks that failed: the
 * step, never a score (a score would teach an attacker how close a forgery came).
 */
export const REDO_STEPS = ['face', 'action', 'words', 'light', 'quality', 'challenge'] as const;
export type RedoStep = (typeof REDO_STEPS)[number];

const STEP_OF: Record<string, RedoStep> = {
  face_present: 'face',
  single_face: 'face',
  identity_consistency: 'face',
  final_frame_match: 'face',
  reference_match: 'face',
  sequence: 'action',
  liveness_motion: 'action',
  voice_activity: 'words',
  words: 'words',
  light: 'light',
  sensor_noise: 'light',
  media: 'quality',
  analysis_error: 'quality',
  challenge_redraws: 'challenge',
};

/** The distinct steps to redo, in the order of the ceremony; unknown checks map to nothing. */
export function redoSteps(failedChecks: readonly string[]): RedoStep[] {
  const steps = new Set(failedChecks.map((c) => STEP_OF[c]).filter((s): s is RedoStep => !!s));
  return REDO_STEPS.filter((s) => steps.has(s));
}
