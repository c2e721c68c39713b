import type { CertificateBundle } from '@signet/verify';
import type { LedgerLog } from '../log/ledger-log.js';
import { findSealedCertificate, type SealedLookupDeps } from './find-sealed-certificate.js';

/**
 * GetProofBundle: cert.json (certificate, seal, inclusion proof, signed checkpoint) for a sealed
 * certificate; with `revealCommitments` (the owner's copy, the caller checked ownership) also the
 * openings of its media commitments.
 */
export async function getProofBundle(
  deps: SealedLookupDeps & { log: Pick<LedgerLog, 'bundle'> },
  input: { reference: string; hashPrefix: string; revealCommitments?: boolean },
): Promise<CertificateBundle> {
  const rec = await findSealedCertificate(deps, input);
  return deps.log.bundle(rec.reference, { revealCommitments: input.revealCommitments === true });
}
