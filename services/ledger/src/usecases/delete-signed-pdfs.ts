import type { Logger } from '@signet/kit';
import type { SignedPdfObjects } from '../store/signed-pdf.objects.js';
import type { SignedPdfRepository } from '../store/signed-pdf.repository.js';

/** How long the sealing job's claim on a record holds (usecases/seal-signed-pdfs.ts LEASE_MS). */
export const SEAL_LEASE_MS = 120_000;

export type DeleteSignedPdfsDeps = {
  signedPdfs: Pick<SignedPdfRepository, 'find' | 'remove' | 'markDeleted'>;
  objects: Pick<SignedPdfObjects, 'removeSigned'>;
  logger: Pick<Logger, 'info'>;
  now?: () => Date;
  /** Called with the number of stored PDFs deleted (counted by the caller). */
  onDeleted?: (objects: number) => void;
  /** Tests only: runs between deleting the objects and dropping the record (a crash there). */
  afterDelete?: () => Promise<void>;
};

/**
 * The owner deleted the transaction of `reference` (signet.transaction.deleted; docs/privacy.md):
 * deletes its signed PDF and audit-trail PDF from the signed bucket, then the record that named them
 * (it held the document's key and, until sealed, the signers' e-mails and ceremony trails), so
 * GetSignedPdf answers NOT_FOUND — download links included. The object keys are also derived from
 * the reference, so a record already gone still has its objects deleted; deleting a missing object is
 * no error. Idempotent: a redelivery, or a retry after a crash between the two steps, finishes it.
 *
 * A record not yet sealed is first marked deleted (never claimed or sealed again). If the sealing job
 * may hold it right now (its next attempt is within one claim's length: a claim moves it exactly
 * that far), that job could still write the PDFs after they were deleted: the record is kept and this
 * throws, so the event comes back (the consumer's backoff) and deletes again once the claim expired.
 * The certificate and its leaf stay: the log is append-only and /api/verify keeps answering for it.
 */
export async function deleteSignedPdfs(deps: DeleteSignedPdfsDeps, reference: string): Promise<number> {
  if (!reference) return 0;
  const now = (deps.now ?? (() => new Date()))();
  const found = await deps.signedPdfs.find(reference);
  const rec = found?.status === 'pending' ? ((await deps.signedPdfs.markDeleted(reference)) ?? found) : found;
  const keys = new Set([`${reference}.pdf`, `${reference}-audit-trail.pdf`]);
  if (rec?.object_key) keys.add(rec.object_key);
  if (rec?.audit_object_key) keys.add(rec.audit_object_key);
  for (const key of keys) await deps.objects.removeSigned(key);
  await deps.afterDelete?.();
  if (!rec) return 0;
  const claimLeft = new Date(rec.next_attempt_at).getTime() - now.getTime();
  if (rec.status !== 'sealed' && claimLeft > 0 && claimLeft <= SEAL_LEASE_MS)
    throw new Error('the signed PDF may be being sealed right now; deleted again once its claim expires');
  await deps.signedPdfs.remove(reference);
  const stored = [rec.object_key, rec.audit_object_key].filter(Boolean).length;
  deps.onDeleted?.(stored);
  deps.logger.info({ reference, objects: stored }, 'signed PDF and audit trail deleted with their transaction');
  return stored;
}
