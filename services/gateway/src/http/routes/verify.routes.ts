import { Router, type Router as ExpressRouter } from 'express';
import type { PromiseClient } from '@signet/kit';
import type { ledgerV1 } from '@signet/proto';
import { badRequest } from '../errors.js';

const REFERENCE = /^[A-Z0-9]{2,8}-TX-\d{8}$/;
const PREFIX = /^[0-9a-fA-F]{16}$/;

/** GET /api/verify/{label}/{hash}: public certificate verification. */
export function verifyRoutes(ledger: PromiseClient<ledgerV1.LedgerServiceClient>): ExpressRouter {
  const r = Router();
  r.get('/api/verify/:label/:hash', async (req, res) => {
    const { label, hash } = req.params;
    if (!REFERENCE.test(label)) throw badRequest('label must be a certificate reference like ABC-TX-00000001');
    if (!PREFIX.test(hash)) throw badRequest('hash must be the first 16 hexadecimal characters of the document SHA-256');
    const result = await ledger.verifyCertificate({ reference: label, documentSha256Prefix: hash.toLowerCase() });
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json({
      valid: result.valid,
      reference: result.reference,
      signer_name: result.signerName,
      issuer_name: result.issuerName,
      verified_at: result.verifiedAt,
      document_sha256_prefix: result.documentSha256Prefix,
      verification_mode: result.verificationMode,
      ledger_seal: result.ledgerSeal,
    });
  });
  return r;
}
