import { applyCertificate } from '../domain/ceremony-steps.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** The ledger issued this transaction's certificate: capture_accepted with every signer passed → ledger_issued. */
export async function recordCertificate(deps: ChangeDeps, transactionId: number, reference: string): Promise<void> {
  await applyChange(deps, { id: transactionId }, (s, now) => applyCertificate(s, reference, now));
}
