import type { AnalyzerResult } from './analyzer.js';

/**
 * PASS and FAIL judge the signer; ERROR says the capture could not be judged for a technical reason
 * (a missed deadline, a worker that died, media the service could not read), so no attempt of the
 * signer is charged for it.
 */
export type VerdictOutcome = 'PASS' | 'FAIL' | 'ERROR';

/** Deliveries of one capture that may fail for technical reasons before it ends without a judgement. */
export const MAX_ANALYSIS_DELIVERIES = 3;

/**
 * Captures of one signer that may end in ERROR without charging an attempt. The next one is charged
 * (FAIL `analysis_error`): media made to miss the deadline every time must not buy endless tries,
 * and a signer whose captures never analyse is not kept waiting forever.
 */
export const MAX_UNCHARGED_ERRORS = 2;

export type Verdict = Omit<AnalyzerResult, 'outcome'> & { outcome: VerdictOutcome };

/**
 * The verdict of a capture whose analysis failed on its last delivery: ERROR (not charged) while the
 * signer has had fewer than MAX_UNCHARGED_ERRORS of them, else FAIL `analysis_error`.
 */
export function technicalFailure(models: string[], priorErrors: number): Verdict {
  return {
    outcome: priorErrors < MAX_UNCHARGED_ERRORS ? 'ERROR' : 'FAIL',
    failedChecks: ['analysis_error'],
    checks: {},
    models,
    framesAnalysed: 0,
    durationMs: 0,
    inferenceMs: 0,
  };
}

/** Whether a failed delivery is the last one the capture gets (deliveryCount counts from 1). */
export function isLastDelivery(deliveryCount: number): boolean {
  return deliveryCount >= MAX_ANALYSIS_DELIVERIES;
}
