import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';
import { badRequest } from '../errors.js';

const REFERENCE = /^[A-Z0-9]{2,8}-TX-\d{8}$/;
const PREFIX = /^[0-9a-fA-F]{16}$/;

/** GET /api/verify/{label}/{hash}: public certificate verification. */
export function verifyRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  r.get('/api/verify/:label/:hash', async (req, res) => {
    const { label, hash } = req.params;
    if (!REFERENCE.test(label)) throw badRequest('label must be a certificate reference like ABC-TX-00000001');
    if (!PREFIX.test(hash)) throw badRequest('hash must be the first 16 hexadecimal characters of the document SHA-256');
    const result = await ctx.ledger.verifyCertificate({ reference: label, documentSha256Prefix: hash.toLowerCase() });
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
  return {
    router: r,
    openapi: {
      '/api/verify/{label}/{hash}': {
        get: {
          summary: 'Verify a certificate by its reference and the first 16 hex characters of the document SHA-256',
          security: [],
          parameters: [
            { name: 'label', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z0-9]{2,8}-TX-\\d{8}$' } },
            { name: 'hash', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-fA-F]{16}$' } },
          ],
          responses: {
            '200': { description: 'The certificate verification result', content: { 'application/json': { schema: { $ref: '#/components/schemas/Verification' } } } },
            '400': { $ref: '#/components/responses/BadRequest' },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
    },
  };
}
