import { Router } from 'express';
import { z } from 'zod';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest } from '../../errors.js';

const REFERENCE = /^[A-Z0-9]{2,8}-TX-\d{8}$/;

const proofQuery = z.object({
  hash: z
    .string({ error: 'hash is required: the first 16 hexadecimal characters of the document SHA-256' })
    .regex(/^[0-9a-fA-F]{16}$/, 'hash must be the first 16 hexadecimal characters of the document SHA-256'),
  download: z.enum(['0', '1']).optional(),
});

const size = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^\d{1,15}$/, `${name} must be a tree size (a non-negative integer)`)
    .transform(Number);

const consistencyQuery = z
  .object({ from: size('from'), to: size('to').optional() })
  .refine((q) => q.from >= 1, { message: 'from must be at least 1', path: ['from'] })
  .refine((q) => q.to === undefined || q.to >= q.from, { message: 'to must not be smaller than from', path: ['to'] });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'invalid query');
  return r.data;
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** /api/ledger: the evidence behind every certificate, public like /api/verify. */
export function ledgerRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();

  router.get('/api/ledger/proof/:reference', async (req, res) => {
    const { reference } = req.params;
    if (!REFERENCE.test(reference)) throw badRequest('reference must be a certificate reference like ABC-TX-00000001');
    const q = parse(proofQuery, req.query);
    const { bundleJson } = await ctx.ledger.getProofBundle({ reference, documentSha256Prefix: q.hash.toLowerCase() });
    if (q.download === '1') res.setHeader('Content-Disposition', `attachment; filename="${reference}.cert.json"`);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(bundleJson);
  });

  router.get('/api/ledger/checkpoint', async (req, res) => {
    const cp = await ctx.ledger.getCheckpoint({});
    res.setHeader('Cache-Control', 'no-cache');
    if (req.accepts(['application/json', 'text/plain']) === 'text/plain') return void res.type('text/plain').send(cp.checkpoint);
    res.json({ origin: cp.origin, tree_size: cp.treeSize, root_hash: b64(cp.rootHash), checkpoint: cp.checkpoint });
  });

  router.get('/api/ledger/consistency', async (req, res) => {
    const q = parse(consistencyQuery, req.query);
    const p = await ctx.ledger.getConsistencyProof({ fromSize: q.from, toSize: q.to ?? 0 });
    res.setHeader('Cache-Control', q.to === undefined ? 'no-cache' : 'public, max-age=3600');
    res.json({
      from: p.fromSize,
      to: p.toSize,
      from_root: b64(p.fromRoot),
      to_root: b64(p.toRoot),
      proof: p.proof.map(b64),
      from_checkpoint: p.fromCheckpoint || null,
      to_checkpoint: p.toCheckpoint || null,
    });
  });

  router.get('/api/ledger/public-key', async (_req, res) => {
    const k = await ctx.ledger.getPublicKey({});
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json({
      origin: k.origin,
      algorithm: k.algorithm,
      key_id: k.keyId,
      verifier_key: k.verifierKey,
      public_key: b64(k.publicKey),
      public_key_pem: k.publicKeyPem,
    });
  });

  const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
  const b64s = { type: 'string', contentEncoding: 'base64' };
  return {
    router,
    openapi: {
      '/api/ledger/proof/{reference}': {
        get: {
          summary:
            'The evidence bundle (cert.json) of a certificate: certificate, ledger seal, inclusion proof and signed checkpoint',
          description:
            'Needs the document hash prefix like /api/verify, so that references cannot be enumerated for signer names. Verify offline with `signet-verify cert.json document.pdf --key <verifier_key>`.',
          security: [],
          parameters: [
            { name: 'reference', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z0-9]{2,8}-TX-\\d{8}$' } },
            { name: 'hash', in: 'query', required: true, schema: { type: 'string', pattern: '^[0-9a-fA-F]{16}$' } },
            {
              name: 'download',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: ['0', '1'] },
              description: '1: served as an attachment <reference>.cert.json',
            },
          ],
          responses: {
            '200': json(
              {
                type: 'object',
                required: ['format', 'certificate', 'ledger_seal', 'leaf_index', 'tree_size', 'inclusion_proof', 'checkpoint'],
                properties: {
                  format: { const: 'signet-certificate-bundle/v1' },
                  certificate: { type: 'object', description: 'The sealed certificate; its RFC 8785 canonical JSON is the leaf' },
                  ledger_seal: { type: 'string' },
                  leaf_index: { type: 'integer' },
                  tree_size: { type: 'integer' },
                  inclusion_proof: { type: 'array', items: b64s },
                  checkpoint: { type: 'string', description: 'C2SP tlog-checkpoint as a signed note' },
                },
              },
              'The bundle',
            ),
            '400': { $ref: '#/components/responses/BadRequest' },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
      '/api/ledger/checkpoint': {
        get: {
          summary: 'The latest signed checkpoint of the certificate log (JSON, or the bare note with Accept: text/plain)',
          security: [],
          responses: {
            '200': {
              description: 'The checkpoint',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      origin: { type: 'string' },
                      tree_size: { type: 'integer' },
                      root_hash: b64s,
                      checkpoint: { type: 'string' },
                    },
                  },
                },
                'text/plain': { schema: { type: 'string' } },
              },
            },
          },
        },
      },
      '/api/ledger/consistency': {
        get: {
          summary: 'RFC 9162 consistency proof between two sizes of the log',
          security: [],
          parameters: [
            { name: 'from', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
            {
              name: 'to',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1 },
              description: 'default: the current size',
            },
          ],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: {
                  from: { type: 'integer' },
                  to: { type: 'integer' },
                  from_root: b64s,
                  to_root: b64s,
                  proof: { type: 'array', items: b64s },
                  from_checkpoint: { type: ['string', 'null'] },
                  to_checkpoint: { type: ['string', 'null'] },
                },
              },
              'The proof',
            ),
            '400': { $ref: '#/components/responses/BadRequest' },
          },
        },
      },
      '/api/ledger/public-key': {
        get: {
          summary: 'The log’s Ed25519 public key, as a signed-note verifier key and PEM',
          security: [],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: {
                  origin: { type: 'string' },
                  algorithm: { const: 'Ed25519' },
                  key_id: { type: 'string' },
                  verifier_key: { type: 'string' },
                  public_key: b64s,
                  public_key_pem: { type: 'string' },
                },
              },
              'The key',
            ),
          },
        },
      },
    },
  };
}
