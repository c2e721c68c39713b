import { applyForfeit } from '../domain/ceremony-steps.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** The signer drew too many challenges in one attempt (ceremony): the attempt is spent as a failed capture. */
export async function forfeitAttempt(
  deps: ChangeDeps,
  transactionId: number,
  forfeit: { index: number; capture_id: string; attempt: number; reason: string },
): Promise<void> {
  await applyChange(deps, { id: transactionId }, (s, now) => applyForfeit(s, forfeit, now));
}
