import { existsSync } from 'node:fs';
import { Router, type Response } from 'express';
import { z } from 'zod';
import { achievedAssurance, assuranceMeaning, RpcError } from '@signet/kit';
import type { GatewayContext, RouteModule } from '../../context.js';
import { httpStatusOf } from '../../errors.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';
import { WEB_DIST } from '../../web-dist.js';
import { assuranceLevelSchema, verifiedSignerSchema } from '../../assurance.schemas.js';
import { signedPdfRoute } from './signed-pdf.routes.js';

const verifyParams = z.object({
  label: z
    .string()
    .regex(/^[A-Z0-9]{2,8}-TX-\d{8}$/, 'label must be a certificate reference like ABC-TX-00000001')
    .meta({ description: 'The certificate reference', example: 'SIG-TX-00000001' }),
  hash: z
    .string()
    .regex(
      /^[0-9a-fA-F]{16}(?:[0-9a-fA-F]{48})?$/,
      'hash must be the first 16 hexadecimal characters of the document SHA-256, or all 64',
    )
    .meta({
      description:
        'The first 16 hexadecimal characters of the SHA-256 of the original document or of the signed PDF the ledger made of it, or all 64 (then the whole hash must match); either case',
    }),
});

export const verificationSchema = z
  .object({
    valid: z.boolean(),
    reference: z.string(),
    signer_name: z.string(),
    issuer_name: z.string().meta({ description: 'The issuing sender organisation' }),
    verified_at: z.string().meta({ description: 'ISO 8601 UTC', format: 'date-time' }),
    document_sha256_prefix: z.string(),
    verification_mode: z.string(),
    ledger_seal: z.string(),
    log: z.enum(['live', 'test']).meta({
      description:
        'The transparency log that sealed the certificate, not an assurance level: live (the production log) or test for a test-mode certificate (free, proves no real signing; key: GET /api/ledger/public-key?log=test). What the ceremony proved is `assurance`.',
    }),
    assurance: assuranceLevelSchema.meta({
      description:
        'What the certificate proves as a whole: the weakest of its signers’ assurance levels (test < recorded < live < live+webauthn)',
    }),
    assurance_meaning: z.string().meta({ description: 'One plain sentence saying what `assurance` proves and what it does not' }),
    signers: z.array(verifiedSignerSchema).meta({ description: 'Every certified signer, in the certificate’s order' }),
  })
  .meta({ id: 'Verification' });

/** A level as the ledger names it, with its sentence (today's wording if the ledger sent none). */
function assuranceAnswer(a: { assurance: string; assuranceMeaning: string }) {
  const assurance = achievedAssurance(a.assurance, false);
  return { assurance, assurance_meaning: a.assuranceMeaning || assuranceMeaning(assurance) };
}

/** A sealed certificate never changes, so a verdict can be kept; a miss is kept briefly (it may be issued soon). */
const HIT_TTL_MS = 60_000;
const MISS_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

type Cached = { status: number; body: string; expires: number };

/** A small in-process cache of serialized answers, bounded, oldest evicted first. */
function answerCache() {
  const entries = new Map<string, Cached>();
  return {
    get(key: string): Cached | undefined {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expires > Date.now()) return e;
      entries.delete(key);
      return undefined;
    },
    set(key: string, status: number, body: string) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, { status, body, expires: Date.now() + (status === 200 ? HIT_TTL_MS : MISS_TTL_MS) });
    },
  };
}

function send(res: Response, c: { status: number; body: string }) {
  res.setHeader('Cache-Control', c.status === 200 ? 'public, max-age=60' : 'no-cache');
  res.status(c.status).type('application/json').send(c.body);
}

/** GET /api/verify/{label}/{hash}: public certificate verification; GET /verify: the page for people. */
export function verifyRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  const cache = answerCache();
  const lookups = ctx.metrics.counter('signet_gateway_verify_cache_lookups_total', 'GET /api/verify answers by cache outcome', [
    'result',
  ]);

  const verify = defineRoute({
    method: 'get',
    path: '/api/verify/{label}/{hash}',
    operationId: 'verifyCertificate',
    summary: 'Verify a certificate by its reference and the document SHA-256 (its first 16 hex characters, or all 64)',
    description:
      'The hash is that of the original document (the signed PDF’s first revision, byte for byte) or of the signed PDF itself, as downloaded. ' +
      '`document_sha256_prefix` in the answer is always the original’s. ' +
      'Unknown references, wrong prefixes and wrong full hashes get the same 404. Answers are cached briefly by the gateway.',
    tags: ['Verification'],
    security: 'public',
    params: verifyParams,
    responses: {
      200: {
        description: 'The certificate verification result',
        body: verificationSchema,
        headers: { 'Cache-Control': { description: 'public, max-age=60', schema: z.string() } },
      },
      ...errorResponses(400, 404),
    },
    async handle({ params: { label, hash } }, _req, res) {
      const prefix = hash.toLowerCase();
      const key = `${label}/${prefix}`;
      const hit = cache.get(key);
      if (hit) {
        lookups.inc({ result: 'hit' });
        return void send(res, hit);
      }
      lookups.inc({ result: 'miss' });
      try {
        const result = await ctx.ledger.verifyCertificate({ reference: label, documentSha256Prefix: prefix });
        const answer: z.input<typeof verificationSchema> = {
          valid: result.valid,
          reference: result.reference,
          signer_name: result.signerName,
          issuer_name: result.issuerName,
          verified_at: result.verifiedAt,
          document_sha256_prefix: result.documentSha256Prefix,
          verification_mode: result.verificationMode,
          ledger_seal: result.ledgerSeal,
          log: result.log === 'test' ? 'test' : 'live',
          ...assuranceAnswer(result),
          signers: result.signers.map((s) => ({ name: s.name, role: s.role, ...assuranceAnswer(s) })),
        };
        if (ctx.validateResponses) verificationSchema.parse(answer);
        const body = JSON.stringify(answer);
        cache.set(key, 200, body);
        send(res, { status: 200, body });
      } catch (err) {
        // An unknown reference and a wrong prefix or full hash are the same 404 (the ledger makes them so); keep it briefly.
        if (err instanceof RpcError && httpStatusOf(err) === 404) {
          const miss = { status: 404, body: JSON.stringify({ detail: err.details }) };
          cache.set(key, miss.status, miss.body);
          return void send(res, miss);
        }
        throw err;
      }
      return undefined;
    },
  });
  const signedPdf = signedPdfRoute(ctx);
  mountRoutes(r, [verify, signedPdf], { validateResponses: ctx.validateResponses });

  // The page (built by @signet/web; its script and style are files under /assets, served by the signing page's routes).
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  r.get('/verify', (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const page = `${WEB_DIST}verify.html`;
    if (!existsSync(page)) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(503).json({ detail: 'The verify page has not been built (pnpm --filter @signet/web build).' });
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.sendFile(page);
  });

  return { router: r, routes: [verify, signedPdf] };
}
