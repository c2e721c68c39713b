import type { ledgerV1 } from '@signet/proto';
import type { LedgerDeps } from '../usecases/deps.js';
import { getCertificate } from '../usecases/get-certificate.js';
import { getProofBundle } from '../usecases/get-proof-bundle.js';
import { renderCertificatePdf } from '../usecases/render-certificate-pdf.js';
import { verifyCertificate } from '../usecases/verify-certificate.js';

/** VerifyCertificate, GetCertificate, GetProofBundle and RenderCertificatePdf. */
export function certificateHandlers(deps: LedgerDeps) {
  return {
    async verifyCertificate(req: ledgerV1.VerifyCertificateRequest): Promise<ledgerV1.VerifyCertificateResponse> {
      const v = await verifyCertificate(deps, { reference: req.reference, hashPrefix: req.documentSha256Prefix });
      // The log is named by grpc/log-select.ts, which knows which log answered.
      return { valid: true, ...v, log: 'live' };
    },
    async getCertificate(req: ledgerV1.GetCertificateRequest): Promise<ledgerV1.GetCertificateResponse> {
      const rec = await getCertificate(deps, req.reference);
      return { certificateJson: JSON.stringify(rec.certificate), ledgerSeal: rec.ledger_seal, leafIndex: rec.leaf_index ?? -1 };
    },
    async getProofBundle(req: ledgerV1.GetProofBundleRequest): Promise<ledgerV1.GetProofBundleResponse> {
      const bundle = await getProofBundle(deps, {
        reference: req.reference,
        hashPrefix: req.documentSha256Prefix,
        revealCommitments: req.revealCommitments,
      });
      return { bundleJson: JSON.stringify(bundle) };
    },
    async renderCertificatePdf(req: ledgerV1.RenderCertificatePdfRequest): Promise<ledgerV1.RenderCertificatePdfResponse> {
      const r = await renderCertificatePdf(deps, { reference: req.reference, events: req.events });
      return { pdf: Buffer.from(r.pdf), filename: r.filename };
    },
  };
}
