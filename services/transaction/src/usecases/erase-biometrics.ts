import { randomUUID } from 'node:crypto';
import type { KeyedLock, OutboxRelay } from '@signet/kit';
import type { AuditBy } from '../domain/audit-by.js';
import { onLegalHold } from '../domain/deletion.js';
import { notPendingErasure, transactionNotFound } from '../domain/errors.js';
import { referenceErasedEntry, type ErasureReason } from '../domain/retention.js';
import { isPending } from '../domain/transaction.js';
import { erasureRequested } from '../events/erasure.publisher.js';
import type { TransactionMetrics } from '../metrics.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TransactionRepository } from '../store/transaction.repository.js';

export type ErasureDeps = {
  repo: Pick<TransactionRepository, 'claimErasure' | 'completeErasure'>;
  objects: Pick<ObjectStore, 'deleteReference'>;
  tm: Pick<TransactionMetrics, 'erasures'>;
  lock: KeyedLock<number>;
  outbox: Pick<OutboxRelay<number>, 'flush'>;
  clock: () => Date;
  /** How long a claim on one record holds (a replica killed mid-erasure leaves it to expire). */
  leaseMs: number;
};

/**
 * Erases one transaction's biometric data: claims it in the store (one replica at a time), deletes
 * the reference photo (deleting a missing object is no error, so a retry after a crash is harmless),
 * then in one update marks it erased, clears the key, appends the log entry and the outbox event
 * that has the ceremony delete the capture media. 'claimed-elsewhere' when another claim holds or it
 * is already erased; a failure leaves the claim to expire and the next pass to finish. The event
 * names the owner (identity records the erasure in the account audit log) and, for the owner's
 * request, the member and client who asked.
 */
export async function eraseTransactionBiometrics(
  deps: ErasureDeps,
  id: number,
  reason: ErasureReason,
  by?: AuditBy,
): Promise<'erased' | 'claimed-elsewhere'> {
  const lease = randomUUID();
  const now = deps.clock();
  const rec = await deps.repo.claimErasure(id, lease, now, new Date(now.getTime() + deps.leaseMs));
  if (!rec) return 'claimed-elsewhere';
  // The record's photo and each signer's own (issue 18); one object may be both.
  const keys = new Set([rec.reference_key, ...rec.signers.map((s) => s.reference_key ?? '')].filter(Boolean));
  for (const key of keys) await deps.objects.deleteReference(key);
  const done = await deps.lock(id, async () => {
    const ok = await deps.repo.completeErasure(
      id,
      lease,
      deps.clock(),
      referenceErasedEntry(rec.reference_key, reason, deps.clock()),
      [erasureRequested(id, reason, { ownerId: rec.owner_id, by })],
    );
    if (ok) await deps.outbox.flush(id);
    return ok;
  });
  if (!done) return 'claimed-elsewhere';
  deps.tm.erasures.inc({ reason });
  return 'erased';
}

/**
 * The owner's request (DELETE /api/transactions/{id}/biometrics): another owner's is NOT_FOUND, a
 * pending one FAILED_PRECONDITION (its media are still needed), an erased one changes nothing.
 * True when this call erased it.
 */
export async function eraseOnRequest(
  deps: ErasureDeps & { repo: Pick<TransactionRepository, 'findOwned'> },
  req: { ownerId: string; id: number; test?: boolean; by?: AuditBy },
): Promise<boolean> {
  const rec = req.ownerId && req.id > 0 ? await deps.repo.findOwned(req.ownerId, req.id, req.test ?? false) : null;
  if (!rec) throw transactionNotFound();
  if (isPending(rec.status)) throw notPendingErasure(rec.status);
  // A legal hold suspends every deletion (docs/privacy.md): the owner releases it first.
  if (rec.legal_hold) throw onLegalHold('erase its biometric data', rec.legal_hold.since);
  if (rec.biometrics_erased_at) return false;
  return (await eraseTransactionBiometrics(deps, rec._id, 'sender', req.by)) === 'erased';
}
