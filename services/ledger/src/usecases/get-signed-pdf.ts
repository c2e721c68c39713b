import type { Readable } from 'node:stream';
import { conflict, notFound } from '@signet/kit';
import type { SignedPdfObjects } from '../store/signed-pdf.objects.js';
import type { SignedPdfRepository } from '../store/signed-pdf.repository.js';

export type GetSignedPdfDeps = {
  /** Null when this ledger does not seal PDFs (LEDGER_SEAL_CERT unset). */
  signedPdfs: Pick<SignedPdfRepository, 'find'> | null;
  objects: Pick<SignedPdfObjects, 'openSigned'> | null;
};

/** GetSignedPdf: the stored signed PDF of a reference (or its stored audit-trail PDF); NOT_FOUND when unknown, FAILED_PRECONDITION until sealed or when given up (with the reason). */
export async function getSignedPdf(
  deps: GetSignedPdfDeps,
  reference: string,
  opts: { auditTrail?: boolean } = {},
): Promise<{ filename: string; size: number; open: () => Promise<Readable> }> {
  if (!deps.signedPdfs || !deps.objects) throw conflict('this ledger does not seal signed PDFs (LEDGER_SEAL_CERT is not set)');
  const rec = await deps.signedPdfs.find(reference);
  if (!rec) throw notFound('no signed PDF for this reference');
  if (rec.status === 'failed')
    throw conflict(
      `the signed PDF could not be produced (${rec.failure ?? 'sealing failed'}); the certificate itself stands and verifies`,
    );
  if (rec.status !== 'sealed' || !rec.object_key || rec.size === null)
    throw conflict('the signed PDF is not sealed yet: it follows the certificate once a time-stamping authority answers');
  const objects = deps.objects;
  if (opts.auditTrail) {
    // Sealed before the audit-trail PDF was stored on its own: there is none to serve.
    const auditKey = rec.audit_object_key;
    if (!auditKey || rec.audit_size == null) throw notFound('no audit-trail PDF for this reference');
    return { filename: `${reference}-audit-trail.pdf`, size: rec.audit_size, open: () => objects.openSigned(auditKey) };
  }
  const key = rec.object_key;
  return { filename: `${reference}-signed.pdf`, size: rec.size, open: () => objects.openSigned(key) };
}
