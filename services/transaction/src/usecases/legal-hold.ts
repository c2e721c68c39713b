import { contention, invalid, type KeyedLock } from '@signet/kit';
import { holdReason, holdReleasedEntry, holdSetEntry, type LegalHold } from '../domain/deletion.js';
import { transactionNotFound } from '../domain/errors.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export type LegalHoldDeps = {
  repo: Pick<TransactionRepository, 'findOwned' | 'update'>;
  lock: KeyedLock<number>;
  clock: () => Date;
};

type Target = { ownerId: string; id: number; test?: boolean };

const MAX_RACES = 10;

/** The owner's live (not deleted) transaction, else NOT_FOUND (another owner's, another mode's, a tombstone). */
async function owned(deps: LegalHoldDeps, req: Target): Promise<TransactionRecord> {
  if (!req.ownerId) throw invalid('owner_id is required');
  const rec = req.id > 0 ? await deps.repo.findOwned(req.ownerId, req.id, req.test ?? false) : null;
  if (!rec || rec.deleted_at) throw transactionNotFound();
  return rec;
}

/** Runs `write` under the transaction's lock, re-reading after a lost race (another writer changed it first). */
function locked<T>(deps: LegalHoldDeps, req: Target, write: (rec: TransactionRecord) => Promise<T | undefined>): Promise<T> {
  return deps.lock(req.id, async () => {
    for (let i = 0; i < MAX_RACES; i++) {
      const done = await write(await owned(deps, req));
      if (done !== undefined) return done;
    }
    throw contention('the transaction is changing too often; retry shortly');
  });
}

/**
 * Puts one of the owner's transactions (pending or finished) on legal hold: from then on nothing of
 * it is deleted — not the whole transaction, not its biometric data by retention, by the owner or by a
 * signer's request (those wait; docs/privacy.md). A transaction already on hold keeps its hold as it
 * is (the same `since` and reason). One log entry per hold.
 */
export function setLegalHold(deps: LegalHoldDeps, req: Target & { reason?: string }): Promise<LegalHold> {
  const reason = holdReason(req.reason);
  return locked(deps, req, async (rec) => {
    if (rec.legal_hold) return rec.legal_hold;
    const hold: LegalHold = { since: deps.clock(), reason, by: 'sender' };
    return (await deps.repo.update(rec, { legal_hold: hold }, [holdSetEntry(hold)], [])) ? hold : undefined;
  });
}

/** Releases the owner's legal hold; false when there was none. Deletion and erasure apply again (a due erasure runs on the job's next pass). */
export function releaseLegalHold(deps: LegalHoldDeps, req: Target): Promise<boolean> {
  return locked(deps, req, async (rec) => {
    if (!rec.legal_hold) return false;
    const entry = holdReleasedEntry(rec.legal_hold, deps.clock());
    return (await deps.repo.update(rec, { legal_hold: null }, [entry], [])) ? true : undefined;
  });
}
