import { applyCapture } from '../domain/ceremony-steps.js';
import { withTrail } from '../domain/trail.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** A capture was submitted for analysis (ceremony): consent_accepted → capture_accepted, only from a live challenge. */
export async function acceptCapture(
  deps: ChangeDeps,
  transactionId: number,
  capture: Parameters<typeof applyCapture>[1],
  client?: { ip: string; userAgent: string },
): Promise<void> {
  // The capture's address and browser and its time go on the signer's trail (issue 17's audit trail).
  await applyChange(deps, { id: transactionId }, (s, now) =>
    withTrail(applyCapture(s, capture, now), capture.index, {
      captured_at: now,
      capture_ip: client?.ip ?? '',
      capture_user_agent: client?.userAgent ?? '',
    }),
  );
}
