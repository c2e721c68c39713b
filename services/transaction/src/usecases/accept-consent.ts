import { applyConsent } from '../domain/transaction.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** A signer consented (ceremony): created → consent_accepted. A repeated or late consent changes nothing. */
export async function acceptConsent(
  deps: ChangeDeps,
  ev: { transactionId: number; signerIndex: number; at?: Date },
): Promise<void> {
  await applyChange(deps, { id: ev.transactionId }, (s, now) => applyConsent(s, ev.signerIndex, ev.at ?? now));
}
