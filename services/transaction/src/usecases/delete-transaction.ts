import { contention, invalid, type KeyedLock, type Logger, type OutboxRelay } from '@signet/kit';
import { deletionRefusal, storedKeys, tombstone } from '../domain/deletion.js';
import { transactionNotFound } from '../domain/errors.js';
import { transactionDeleted } from '../events/deletion.publisher.js';
import type { AuditBy } from '../domain/audit-by.js';
import { erasureRequested } from '../events/erasure.publisher.js';
import type { TransactionMetrics } from '../metrics.js';
import type { DeletionStore } from '../store/deletion.repository.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export type DeletionDeps = {
  repo: Pick<TransactionRepository, 'findOwned' | 'update'>;
  tokens: Pick<DeletionStore, 'dropTokens'>;
  objects: Pick<ObjectStore, 'deleteReference' | 'removeDocument'>;
  tm: Pick<TransactionMetrics, 'deletions' | 'erasures'>;
  lock: KeyedLock<number>;
  outbox: Pick<OutboxRelay<number>, 'flush'>;
  clock: () => Date;
  logger?: Pick<Logger, 'warn'>;
};

const MAX_RACES = 10;

/**
 * The owner deletes a whole finished transaction (DELETE /api/transactions/{id}; docs/privacy.md).
 * Under the transaction's lock, one update conditional on the version read turns the record into a
 * tombstone (domain/deletion.ts), appends the `transaction_deleted` log entry and puts on the outbox
 * `signet.transaction.deleted` (the ledger deletes its signed PDF and audit trail) and, unless the
 * biometric data is already erased, `signet.transaction.erasure.requested` (the ceremony deletes the
 * capture media through the erasure path, reason sender). Then the document and reference photos
 * are deleted and the signing tokens dropped: a crash before that leaves objects no record names,
 * which the orphan sweep removes. The deletion event names the member and client the gateway passed
 * (identity's audit log records it from there). NOT_FOUND for another owner's transaction or one already deleted;
 * FAILED_PRECONDITION while pending or on legal hold, with nothing changed.
 */
export async function deleteTransaction(
  deps: DeletionDeps,
  req: { ownerId: string; id: number; test?: boolean; by?: AuditBy },
): Promise<Date> {
  if (!req.ownerId) throw invalid('owner_id is required');
  const { rec, at } = await deps.lock(req.id, async () => {
    for (let i = 0; i < MAX_RACES; i++) {
      const rec: TransactionRecord | null = req.id > 0 ? await deps.repo.findOwned(req.ownerId, req.id, req.test ?? false) : null;
      if (!rec || rec.deleted_at) throw transactionNotFound();
      const refusal = deletionRefusal(rec);
      if (refusal) throw refusal;
      const at = deps.clock();
      const outbox = [
        transactionDeleted(rec, 'sender', req.by),
        ...(rec.biometrics_erased_at ? [] : [erasureRequested(rec._id, 'sender')]),
      ];
      const { log, ...set } = tombstone(rec, at);
      // the tombstone rewrites the whole log (details scrubbed, the deletion entry appended)
      if (await deps.repo.update(rec, { ...set, log } as Partial<TransactionRecord>, [], outbox)) {
        await deps.outbox.flush(rec._id);
        return { rec, at };
      }
    }
    throw contention('the transaction is changing too often; retry shortly');
  });
  deps.tm.deletions.inc({ reason: 'sender' });
  if (!rec.biometrics_erased_at) deps.tm.erasures.inc({ reason: 'sender' });
  try {
    const document = rec.document_key;
    for (const key of storedKeys(rec)) {
      if (key === document) await deps.objects.removeDocument(key);
      else await deps.objects.deleteReference(key);
    }
    await deps.tokens.dropTokens(rec._id);
  } catch (err) {
    // Recorded as deleted already: the orphan sweep removes what no record names any more.
    deps.logger?.warn({ err, transaction_id: rec._id }, 'deleted transaction: objects left to the orphan sweep');
  }
  return at;
}
