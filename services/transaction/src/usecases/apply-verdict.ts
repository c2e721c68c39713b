import { applyVerdict as verdictChange } from '../domain/ceremony-steps.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/**
 * The biometric verdict of a capture: PASS → the signer passed (the last one makes the transaction
 * verified); FAIL → a new challenge while attempts are left, else failed. Only the capture under analysis.
 */
export async function applyVerdict(
  deps: ChangeDeps,
  transactionId: number,
  verdict: { index: number; capture_id: string; outcome: string; failed_checks: string[]; assurance?: string },
): Promise<void> {
  await applyChange(deps, { id: transactionId }, (s, now) => verdictChange(s, verdict, now));
}
