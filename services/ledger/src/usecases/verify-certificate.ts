import { certificateAssuranceOf } from '@signet/kit';
import { certificateMode } from '../domain/certificate.js';
import { findSealedCertificate, type SealedLookupDeps } from './find-sealed-certificate.js';

/**
 * VerifyCertificate: public verification by reference and document hash prefix (see
 * findSealedCertificate); what it shows of the certificate, with each signer's assurance and the
 * certificate's (its weakest signer's), each with the sentence of what it proves.
 */
export async function verifyCertificate(deps: SealedLookupDeps, input: { reference: string; hashPrefix: string }) {
  const rec = await findSealedCertificate(deps, input);
  const cert = rec.certificate;
  const a = certificateAssuranceOf(cert.signers);
  return {
    reference: rec.reference,
    signerName: cert.signers[0]?.name ?? '',
    issuerName: cert.issuer_name,
    verifiedAt: cert.verified_at,
    documentSha256Prefix: rec.document_sha256.slice(0, 16),
    verificationMode: certificateMode(cert),
    ledgerSeal: rec.ledger_seal,
    assurance: a.assurance,
    assuranceMeaning: a.assurance_meaning,
    signers: a.signers.map((s) => ({
      name: s.name,
      role: s.role,
      assurance: s.assurance,
      assuranceMeaning: s.assurance_meaning,
    })),
  };
}
