import { certificateNotFound } from '../domain/errors.js';
import { checkHashPrefix, checkReference, samePrefix } from '../domain/reference.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { CertificateRecord, CertificateRepository } from '../store/certificate.repository.js';
import type { SignedPdfRepository } from '../store/signed-pdf.repository.js';

export type SealedLookupDeps = {
  certs: Pick<CertificateRepository, 'findByReference'>;
  log: Pick<LedgerLog, 'head'>;
  /** The signed PDFs (their SHA-256 is recorded when sealed); absent or null: only the document's hash is looked at. */
  signedPdf?: { signedPdfs: Pick<SignedPdfRepository, 'find'> | null };
};

/**
 * The public lookup behind VerifyCertificate and GetProofBundle: a certificate whose document hash
 * starts with the prefix (16 hex characters), or is the given hash (64) — or whose stored signed PDF's
 * hash does (issue 32: someone holding only the signed PDF can look it up) — and whose leaf a signed
 * checkpoint covers (normally within one sealing pass of issue). One NOT_FOUND for every miss, and
 * the hash is compared (in constant time) even when the reference is unknown, so neither a wrong
 * hash nor an unknown reference can be probed.
 */
export async function findSealedCertificate(
  deps: SealedLookupDeps,
  input: { reference: string; hashPrefix: string },
): Promise<CertificateRecord> {
  checkReference(input.reference);
  const prefix = checkHashPrefix(input.hashPrefix);
  const rec = await deps.certs.findByReference(input.reference);
  // As many characters as were given: a full hash is compared whole, not by its first 16.
  const known = rec?.document_sha256.slice(0, prefix.length) ?? '0'.repeat(prefix.length);
  const pdf = rec && deps.signedPdf?.signedPdfs ? await deps.signedPdf.signedPdfs.find(rec.reference) : null;
  // The signed PDF as served now, and as served before a re-timestamping replaced it (what people may hold).
  const signed = [pdf?.sha256, ...(pdf?.sha256_before ?? [])].filter((h): h is string => typeof h === 'string');
  // Every one is compared, whichever matches: the time taken does not say which.
  const matches = [known, ...signed].map((h) => samePrefix(h.slice(0, prefix.length), prefix)).includes(true);
  if (!rec || !matches || rec.leaf_index === null || rec.leaf_index >= (await deps.log.head()).size) throw certificateNotFound();
  return rec;
}
