import { certificateMode } from '../domain/certificate.js';
import { findSealedCertificate, type SealedLookupDeps } from './find-sealed-certificate.js';

/** VerifyCertificate: public verification by reference and document hash prefix (see findSealedCertificate); what it shows of the certificate. */
export async function verifyCertificate(deps: SealedLookupDeps, input: { reference: string; hashPrefix: string }) {
  const rec = await findSealedCertificate(deps, input);
  const cert = rec.certificate;
  return {
    reference: rec.reference,
    signerName: cert.signers[0]?.name ?? '',
    issuerName: cert.issuer_name,
    verifiedAt: cert.verified_at,
    documentSha256Prefix: rec.document_sha256.slice(0, 16),
    verificationMode: certificateMode(cert),
    ledgerSeal: rec.ledger_seal,
  };
}
