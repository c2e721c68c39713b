import { certificateNotFound } from '../domain/errors.js';
import { checkHashPrefix, checkReference, samePrefix } from '../domain/reference.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { CertificateRecord, CertificateRepository } from '../store/certificate.repository.js';

export type SealedLookupDeps = {
  certs: Pick<CertificateRepository, 'findByReference'>;
  log: Pick<LedgerLog, 'head'>;
};

/**
 * The public lookup behind VerifyCertificate and GetProofBundle: a certificate whose document hash
 * starts with the prefix and whose leaf a signed checkpoint covers (normally within one sealing
 * pass of issue). One NOT_FOUND for every miss, and the prefix is compared (in constant time) even
 * when the reference is unknown, so neither a wrong prefix nor an unknown reference can be probed.
 */
export async function findSealedCertificate(
  deps: SealedLookupDeps,
  input: { reference: string; hashPrefix: string },
): Promise<CertificateRecord> {
  checkReference(input.reference);
  const prefix = checkHashPrefix(input.hashPrefix);
  const rec = await deps.certs.findByReference(input.reference);
  const known = rec?.document_sha256.slice(0, 16) ?? '0'.repeat(16);
  const matches = samePrefix(known, prefix);
  if (!rec || !matches || rec.leaf_index === null || rec.leaf_index >= (await deps.log.head()).size) throw certificateNotFound();
  return rec;
}
