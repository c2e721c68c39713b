import { timingSafeEqual } from 'node:crypto';
import { invalid, notFound } from '@signet/kit';
import type { ledgerV1 } from '@signet/proto';
import { parseCheckpoint, parseNote } from '@signet/verify';
import { certificateMode } from '../domain/certificate.js';
import { certificateNotFound } from '../domain/errors.js';
import { HASH_PREFIX_PATTERN, REFERENCE_PATTERN } from '../domain/reference.js';
import type { LogSigner } from '../domain/signer.js';
import type { LedgerLog } from '../log/ledger-log.js';
import { renderCertificatePdf } from '../pdf/certificate-pdf.js';
import type { CertificateRecord, CertificateRepository } from '../store/certificate.repository.js';

function samePrefix(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkArgs(reference: string, prefixIn: string): string {
  if (!REFERENCE_PATTERN.test(reference)) throw invalid('reference must look like ABC-TX-00000001');
  const prefix = prefixIn.toLowerCase();
  if (!HASH_PREFIX_PATTERN.test(prefix)) throw invalid('hash must be the first 16 hex characters of the document SHA-256');
  return prefix;
}

export type LedgerHandlerDeps = { certs: CertificateRepository; log: LedgerLog; signer: LogSigner; publicBaseUrl: string };

export function ledgerHandlers({ certs, log, signer, publicBaseUrl }: LedgerHandlerDeps) {
  /** A sealed certificate whose document hash starts with the prefix; one answer for every miss. */
  async function sealed(reference: string, prefixIn: string): Promise<CertificateRecord> {
    const prefix = checkArgs(reference, prefixIn);
    const rec = await certs.findByReference(reference);
    // Compare anyway on a miss, so a wrong prefix and an unknown reference take the same path.
    const known = rec?.document_sha256.slice(0, 16) ?? '0'.repeat(16);
    const matches = samePrefix(known, prefix);
    // Public once a signed checkpoint covers its leaf (normally within one sealing pass of issue).
    if (!rec || !matches || rec.leaf_index === null || rec.leaf_index >= (await log.head()).size) throw certificateNotFound();
    return rec;
  }

  return {
    async verifyCertificate(req: ledgerV1.VerifyCertificateRequest): Promise<ledgerV1.VerifyCertificateResponse> {
      const rec = await sealed(req.reference, req.documentSha256Prefix);
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
    async getProofBundle(req: ledgerV1.GetProofBundleRequest): Promise<ledgerV1.GetProofBundleResponse> {
      const rec = await sealed(req.reference, req.documentSha256Prefix);
      return { bundleJson: JSON.stringify(await log.bundle(rec.reference)) };
    },
    async getCheckpoint(): Promise<ledgerV1.GetCheckpointResponse> {
      const head = await log.head();
      return { origin: signer.origin, treeSize: head.size, rootHash: head.root, checkpoint: head.checkpoint };
    },
    async getConsistencyProof(req: ledgerV1.GetConsistencyProofRequest): Promise<ledgerV1.GetConsistencyProofResponse> {
      const to = req.toSize === 0 ? (await log.head()).size : req.toSize;
      const p = await log.consistency(req.fromSize, to);
      return {
        fromSize: p.from,
        toSize: p.to,
        fromRoot: p.fromRoot,
        toRoot: p.toRoot,
        proof: p.proof,
        fromCheckpoint: p.fromCheckpoint ?? '',
        toCheckpoint: p.toCheckpoint ?? '',
      };
    },
    async getPublicKey(): Promise<ledgerV1.GetPublicKeyResponse> {
      return {
        origin: signer.origin,
        algorithm: 'Ed25519',
        keyId: signer.keyId.toString('hex'),
        verifierKey: signer.verifierKey,
        publicKeyPem: signer.publicKeyPem,
        publicKey: Buffer.from(signer.publicKey),
      };
    },
    async renderCertificatePdf(req: ledgerV1.RenderCertificatePdfRequest): Promise<ledgerV1.RenderCertificatePdfResponse> {
      if (!REFERENCE_PATTERN.test(req.reference)) throw invalid('reference must look like ABC-TX-00000001');
      const rec = await certs.findByReference(req.reference);
      if (!rec || rec.leaf_index === null) throw notFound('no sealed certificate for this reference');
      const bundle = await log.bundle(rec.reference);
      const cp = parseCheckpoint(parseNote(bundle.checkpoint).text);
      const verifyUrl = `${publicBaseUrl.replace(/\/$/, '')}/verify?ref=${encodeURIComponent(rec.reference)}&hash=${rec.document_sha256.slice(0, 16)}`;
      const pdf = await renderCertificatePdf({
        certificate: rec.certificate,
        ledgerSeal: rec.ledger_seal,
        leafIndex: rec.leaf_index,
        treeSize: cp.size,
        checkpointRoot: cp.root.toString('base64'),
        origin: cp.origin,
        verifyUrl,
        events: req.events,
      });
      return { pdf: Buffer.from(pdf), filename: `${rec.reference}-certificate.pdf` };
    },
  };
}
