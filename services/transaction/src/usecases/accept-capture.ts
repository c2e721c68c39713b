import { applyCapture } from '../domain/transaction.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** A capture was submitted for analysis (ceremony): consent_accepted → capture_accepted, only from a live challenge. */
export async function acceptCapture(
  deps: ChangeDeps,
  transactionId: number,
  capture: { index: number; capture_id: string; attempt: number; video_sha256: string; frame_sha256: string },
): Promise<void> {
  await applyChange(deps, { id: transactionId }, (s, now) => applyCapture(s, capture, now));
}
