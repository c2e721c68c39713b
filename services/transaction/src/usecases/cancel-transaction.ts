import { invalid } from '@signet/kit';
import { applyCancel } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/**
 * The sender cancels a pending transaction (else TRANSACTION_NOT_PENDING); its signing tokens stop
 * resolving at once (the status is checked on every resolve). Another owner's is NOT_FOUND.
 */
export async function cancelTransaction(
  deps: ChangeDeps,
  req: { ownerId: string; id: number; test?: boolean },
): Promise<TransactionRecord> {
  if (!req.ownerId) throw invalid('owner_id is required');
  // With an owner, applyChange returns the record or throws: cancel always changes a pending transaction.
  return (await applyChange(deps, req, (s, now) => applyCancel(s, now)))!;
}
