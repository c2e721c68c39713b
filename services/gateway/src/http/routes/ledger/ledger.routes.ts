import { Router } from 'express';
import { z } from 'zod';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';

const proofParams = z.object({
  reference: z
    .string()
    .regex(/^[A-Z0-9]{2,8}-TX-\d{8}$/, 'reference must be a certificate reference like ABC-TX-00000001')
    .meta({ description: 'The certificate reference', example: 'SIG-TX-00000001' }),
});

const proofQuery = z.object({
  hash: z
    .string({ error: 'hash is required: the first 16 hexadecimal characters of the document SHA-256, or all 64' })
    .regex(
      /^[0-9a-fA-F]{16}(?:[0-9a-fA-F]{48})?$/,
      'hash must be the first 16 hexadecimal characters of the document SHA-256, or all 64',
    )
    .meta({
      description:
        'The first 16 hexadecimal characters of the SHA-256 of the original document or of its signed PDF, or all 64 (then compared whole)',
    }),
  download: z.enum(['0', '1']).optional().meta({ description: '1: served as an attachment <reference>.cert.json' }),
});

const size = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^\d{1,15}$/, `${name} must be a tree size (a non-negative integer)`)
    .transform(Number);

/** Test mode: which log — the live one (default) or the test log that seals test-mode certificates. */
const logParam = z.enum(['live', 'test']).optional().meta({
  description: 'test: the test log (test-mode certificates, its own key); default live',
});
const logQuery = z.object({ log: logParam });

const consistencyQuery = z
  .object({ from: size('from'), to: size('to').optional().meta({ description: 'Default: the current size' }), log: logParam })
  .refine((q) => q.from >= 1, { message: 'from must be at least 1', path: ['from'] })
  .refine((q) => q.to === undefined || q.to >= q.from, { message: 'to must not be smaller than from', path: ['to'] });

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const b64s = z.string().meta({ contentEncoding: 'base64' });

export const bundleSchema = z
  .object({
    format: z
      .enum(['signet-certificate-bundle/v2', 'signet-certificate-bundle/v1'])
      .meta({ description: 'v2 since issue 17 (certificates of version 2); v1 bundles saved before it keep verifying' }),
    certificate: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The sealed certificate; its RFC 8785 canonical JSON is the leaf' }),
    ledger_seal: z.string(),
    leaf_index: z.int(),
    tree_size: z.int(),
    inclusion_proof: z.array(b64s),
    checkpoint: z.string().meta({ description: 'C2SP tlog-checkpoint as a signed note' }),
    commitment_openings: z
      .object({
        salt: z.string(),
        signers: z.array(z.object({ video_sha256: z.string(), frame_sha256: z.string(), reference_sha256: z.string() })),
      })
      .optional()
      .meta({
        description:
          'Only in the owner’s copy (GET /api/transactions/{id}/evidence.json): the salt and media hashes the certificate’s commitments are made of',
      }),
  })
  .meta({ id: 'CertificateBundle' });
const checkpointSchema = z
  .object({
    origin: z.string(),
    tree_size: z.int(),
    root_hash: b64s,
    checkpoint: z.string(),
    log: z.enum(['live', 'test']).meta({ description: 'The log this checkpoint is of: test is the test-mode log' }),
  })
  .meta({ id: 'Checkpoint' });
const consistencySchema = z.object({
  from: z.int(),
  to: z.int(),
  from_root: b64s,
  to_root: b64s,
  proof: z.array(b64s),
  from_checkpoint: z.string().nullable(),
  to_checkpoint: z.string().nullable(),
});
const logKeySchema = z.object({
  key_id: z.string(),
  verifier_key: z.string(),
  public_key: b64s,
  public_key_pem: z.string(),
  not_before: z.string().nullable().meta({ description: 'Since when the key signs (RFC 3339); null: open' }),
  not_after: z.string().nullable().meta({ description: 'When the key stopped signing (RFC 3339); null for the current key' }),
  current: z.boolean().meta({ description: 'The key the log signs new checkpoints and seals with' }),
});
const publicKeySchema = z.object({
  origin: z.string(),
  algorithm: z.string().meta({ example: 'Ed25519' }),
  key_id: z.string().meta({ description: 'The current key (as before key rotation); every key is in keys' }),
  verifier_key: z.string(),
  public_key: b64s,
  public_key_pem: z.string(),
  keys: z.array(logKeySchema).meta({
    description:
      'Every key of the log, the current one first, then the retired ones with their periods: what a retired key signed keeps verifying. signet-verify --key takes this document as saved.',
  }),
});
const cacheControl = (description: string) => ({ 'Cache-Control': { description, schema: z.string() } });

/** Every /api/ledger route is public and tagged Ledger. */
const common = { tags: ['Ledger'], security: 'public' as const };

/** GET /api/ledger/proof/{reference}: the evidence bundle. */
function proofRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/ledger/proof/{reference}',
    operationId: 'getProofBundle',
    summary: 'The evidence bundle (cert.json) of a certificate: certificate, ledger seal, inclusion proof and signed checkpoint',
    description:
      'Needs the document hash prefix like /api/verify, so that references cannot be enumerated for signer names. Verify offline with `signet-verify cert.json document.pdf --key <verifier_key>`.',
    params: proofParams,
    query: proofQuery,
    responses: {
      200: { description: 'The bundle', body: bundleSchema, headers: cacheControl('no-cache') },
      ...errorResponses(400, 404),
    },
    async handle({ params: { reference }, query: q }, _req, res) {
      const { bundleJson } = await ctx.ledger.getProofBundle({
        reference,
        documentSha256Prefix: q.hash.toLowerCase(),
        revealCommitments: false,
      });
      if (q.download === '1') res.setHeader('Content-Disposition', `attachment; filename="${reference}.cert.json"`);
      res.setHeader('Cache-Control', 'no-cache');
      // Sent as the ledger serialized it: the bundle's bytes are what a verifier reads.
      res.type('application/json').send(bundleJson);
      return undefined;
    },
  });
}

/** GET /api/ledger/checkpoint: the newest signed checkpoint. */
function checkpointRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/ledger/checkpoint',
    operationId: 'getCheckpoint',
    summary: 'The latest signed checkpoint of the certificate log (JSON, or the bare note with Accept: text/plain)',
    query: logQuery,
    responses: {
      200: {
        description: 'The checkpoint',
        body: checkpointSchema,
        content: { 'text/plain': z.string() },
        headers: cacheControl('no-cache'),
      },
      ...errorResponses(400, 404),
    },
    async handle({ query: q }, req, res) {
      const cp = await ctx.ledger.getCheckpoint({ log: q.log ?? 'live' });
      res.setHeader('Cache-Control', 'no-cache');
      if (req.accepts(['application/json', 'text/plain']) === 'text/plain')
        return void res.type('text/plain').send(cp.checkpoint);
      return {
        status: 200 as const,
        body: {
          origin: cp.origin,
          tree_size: cp.treeSize,
          root_hash: b64(cp.rootHash),
          checkpoint: cp.checkpoint,
          log: q.log ?? 'live',
        },
      };
    },
  });
}

/** GET /api/ledger/consistency: a consistency proof between two sizes. */
function consistencyRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/ledger/consistency',
    operationId: 'getConsistencyProof',
    summary: 'RFC 9162 consistency proof between two sizes of the log',
    query: consistencyQuery,
    responses: {
      200: {
        description: 'The proof',
        body: consistencySchema,
        headers: cacheControl('no-cache without to; public, max-age=3600 with it'),
      },
      ...errorResponses(400, 404),
    },
    async handle({ query: q }, _req, res) {
      const p = await ctx.ledger.getConsistencyProof({ fromSize: q.from, toSize: q.to ?? 0, log: q.log ?? 'live' });
      res.setHeader('Cache-Control', q.to === undefined ? 'no-cache' : 'public, max-age=3600');
      return {
        status: 200 as const,
        body: {
          from: p.fromSize,
          to: p.toSize,
          from_root: b64(p.fromRoot),
          to_root: b64(p.toRoot),
          proof: p.proof.map(b64),
          from_checkpoint: p.fromCheckpoint || null,
          to_checkpoint: p.toCheckpoint || null,
        },
      };
    },
  });
}

/** GET /api/ledger/public-key: the log’s keys. */
function publicKeyRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/ledger/public-key',
    operationId: 'getLedgerPublicKey',
    summary: 'The log’s Ed25519 public keys (current and retired, with their periods), as signed-note verifier keys and PEM',
    query: logQuery,
    responses: {
      200: { description: 'The key', body: publicKeySchema, headers: cacheControl('public, max-age=300') },
      ...errorResponses(400, 404),
    },
    async handle({ query: q }, _req, res) {
      const k = await ctx.ledger.getPublicKey({ log: q.log ?? 'live' });
      res.setHeader('Cache-Control', 'public, max-age=300');
      return {
        status: 200 as const,
        body: {
          origin: k.origin,
          algorithm: k.algorithm,
          key_id: k.keyId,
          verifier_key: k.verifierKey,
          public_key: b64(k.publicKey),
          public_key_pem: k.publicKeyPem,
          keys: k.keys.map((e) => ({
            key_id: e.keyId,
            verifier_key: e.verifierKey,
            public_key: b64(e.publicKey),
            public_key_pem: e.publicKeyPem,
            not_before: e.notBefore || null,
            not_after: e.notAfter || null,
            current: e.current,
          })),
        },
      };
    },
  });
}

/** /api/ledger: the evidence behind every certificate, public like /api/verify. */
export function ledgerRoutes(ctx: GatewayContext): RouteModule {
  const routes = [proofRoute(ctx), checkpointRoute(ctx), consistencyRoute(ctx), publicKeyRoute(ctx)];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
