import { contention, type KeyedLock } from '@signet/kit';
import { mediaErasedEntry, mediaErasureLogged } from '../domain/retention.js';
import type { TransactionRepository } from '../store/transaction.repository.js';

export type RecordMediaErasedDeps = {
  repo: Pick<TransactionRepository, 'findById' | 'update'>;
  lock: KeyedLock<number>;
  clock: () => Date;
};

/**
 * Appends the ceremony's erasure of one signer's capture media to the transaction's event log, once:
 * a redelivered event finds the entry and changes nothing. An unknown transaction is dropped.
 */
export function recordMediaErased(
  deps: RecordMediaErasedDeps,
  e: { transactionId: number; signerIndex: number; reason: string; keyDigests: string[]; at?: Date },
): Promise<void> {
  return deps.lock(e.transactionId, async () => {
    for (let i = 0; i < 10; i++) {
      const rec = await deps.repo.findById(e.transactionId);
      if (!rec || mediaErasureLogged(rec.log, e.signerIndex)) return;
      const entry = mediaErasedEntry(e.signerIndex, e.keyDigests, e.reason, e.at ?? deps.clock());
      if (await deps.repo.update(rec, { status: rec.status }, [entry], [])) return;
    }
    throw contention('the transaction is changing too often; retry shortly');
  });
}
