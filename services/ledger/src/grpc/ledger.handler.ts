import { timingSafeEqual } from 'node:crypto';
import { invalid, notFound } from '@signet/kit';
import type { ledgerV1 } from '@signet/proto';
import { certificateMode } from '../domain/certificate.js';
import { certificateNotFound } from '../domain/errors.js';
import { HASH_PREFIX_PATTERN, REFERENCE_PATTERN } from '../domain/reference.js';
import type { CertificateRepository } from '../store/certificate.repository.js';

function samePrefix(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function ledgerHandlers(certs: CertificateRepository) {
  return {
    async verifyCertificate(req: ledgerV1.VerifyCertificateRequest): Promise<ledgerV1.VerifyCertificateResponse> {
      if (!REFERENCE_PATTERN.test(req.reference)) throw invalid('reference must look like ABC-TX-00000001');
      const prefix = req.documentSha256Prefix.toLowerCase();
      if (!HASH_PREFIX_PATTERN.test(prefix)) throw invalid('hash must be the first 16 hex characters of the document SHA-256');
      const rec = await certs.findByReference(req.reference);
      if (!rec || !samePrefix(rec.document_sha256.slice(0, 16), prefix)) throw certificateNotFound();
      const cert = rec.certificate;
      return {
        valid: true,
        reference: rec.reference,
        signerName: cert.signers[0]?.name ?? '',
        issuerName: cert.issuer_name,
        verifiedAt: cert.verified_at,
        documentSha256Prefix: rec.document_sha256.slice(0, 16),
        verificationMode: certificateMode(cert),
        ledgerSeal: rec.ledger_seal,
      };
    },
    async getCertificate(req: ledgerV1.GetCertificateRequest): Promise<ledgerV1.GetCertificateResponse> {
      const rec = await certs.findByReference(req.reference);
      if (!rec) throw notFound('no certificate for this reference');
      return { certificateJson: JSON.stringify(rec.certificate), ledgerSeal: rec.ledger_seal, leafIndex: rec.leaf_index ?? -1 };
    },
  };
}
