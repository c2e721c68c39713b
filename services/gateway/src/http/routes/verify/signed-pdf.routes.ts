/**
 * POST /api/verify/signed-pdf (issue 17): a person drops a signed PDF on /verify and the gateway
 * checks it with @signet/verify — the PAdES seal over the whole file, its certificate chain and RFC
 * 3161 timestamp against VERIFY_TRUST_ROOTS, and the embedded cert.json against the log's key and
 * the witness quorum the ledger requires of that log (as `signet-verify --witness`) — and answers
 * every check. Public, rate-limited per address, size-capped; the body is read as it arrives so that
 * a file that is not a PDF or too large is refused at once.
 */
import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { parseVerifierKey, parseWitnessKey, type LogKey } from '@signet/verify';
import { parsePemCertificates, SignedPdfError, verifySignedPdf, type LogKeySet } from '@signet/verify/signed-pdf';
import { certificateAssuranceOf } from '@signet/kit';
import type { GatewayContext } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { RATE_LIMITS, rateLimitCheck } from '../../rate-limit.js';
import { defineRoute, errorResponses, type AnyRoute } from '../../route.js';
import { assuranceLevelSchema, verifiedSignerSchema } from '../../assurance.schemas.js';

const checkSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
export const signedPdfVerificationSchema = z
  .object({
    valid: z.boolean().meta({ description: 'Every check passed' }),
    reference: z.string().nullable().meta({ description: 'The certificate reference cert.json carries' }),
    log: z
      .enum(['live', 'test'])
      .nullable()
      .meta({ description: 'The log of the certificate: test for a test-mode one (no real signing)' }),
    sealed_by: z.string().nullable().meta({ description: 'The sealing certificate’s subject' }),
    timestamp: z.string().nullable().meta({ description: 'The RFC 3161 time of the seal, ISO 8601 UTC', format: 'date-time' }),
    assurance: assuranceLevelSchema.nullable().meta({
      description:
        'What the certificate proves as a whole (its weakest signer’s level); null unless every check passed: a certificate that does not verify proves nothing',
    }),
    assurance_meaning: z.string().nullable().meta({ description: 'One plain sentence saying what `assurance` proves' }),
    signers: z
      .array(verifiedSignerSchema)
      .meta({ description: 'Every certified signer and their level; empty unless every check passed' }),
    checks: z.array(checkSchema).meta({
      description:
        'coverage, integrity, timestamp, certificate, evidence … (cert.json: bundle, leaf, checkpoint, inclusion, seal), consistency',
    }),
  })
  .meta({ id: 'SignedPdfVerification' });

const KEYS_TTL_MS = 300_000;

/** Reads the body up to `max` bytes; refuses at once a declared or actual size over it, or a start that is not %PDF-. */
async function readPdf(req: Request, res: Response, max: number): Promise<Buffer> {
  const refuse = (err: HttpError) => {
    // Answer now; drain what the client still sends (a declared size over the cap: close instead).
    res.setHeader('Connection', 'close');
    req.resume();
    return err;
  };
  const tooLarge = () => refuse(new HttpError(413, `the signed PDF must be at most ${Math.floor(max / 1048576)} MB`));
  if (Number(req.headers['content-length'] ?? 0) > max) throw tooLarge();
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooLarge();
    parts.push(chunk);
    if (size >= 5 && parts.length <= 5 && Buffer.concat(parts).subarray(0, 5).toString('latin1') !== '%PDF-')
      throw refuse(badRequest('the file is not a PDF (it does not start with %PDF-)'));
  }
  if (size < 5) throw badRequest('the request body is the signed PDF; it was empty or too short');
  return Buffer.concat(parts, size);
}

export function signedPdfRoute(ctx: GatewayContext): AnyRoute {
  const rootsPem = ctx.cfg.VERIFY_TRUST_ROOTS;
  const roots = rootsPem
    ? parsePemCertificates(rootsPem.includes('-----BEGIN') ? rootsPem : readFileSync(rootsPem, 'utf8'))
    : null;
  if (rootsPem && !roots?.length) throw new Error('VERIFY_TRUST_ROOTS holds no PEM certificate');
  const limit = rateLimitCheck(ctx, RATE_LIMITS.verify_signed_pdf);
  let keys: { at: number; list: LogKeySet[] } | undefined;
  const logKeys = async (): Promise<LogKeySet[]> => {
    if (keys && Date.now() - keys.at < KEYS_TTL_MS) return keys.list;
    const list: LogKeySet[] = [];
    for (const log of ['live', 'test'] as const) {
      // The test log is optional (no key configured: no test certificates to check).
      const k = await ctx.ledger.getPublicKey({ log }).catch((err: unknown) => {
        if (log === 'live') throw err;
        return null;
      });
      if (!k) continue;
      // Every key of the log with its period (a certificate sealed before a rotation names a retired key).
      const all: LogKey[] = k.keys.map((e) => ({
        ...parseVerifierKey(e.verifierKey),
        ...(e.notBefore ? { notBefore: new Date(e.notBefore) } : {}),
        ...(e.notAfter ? { notAfter: new Date(e.notAfter) } : {}),
        current: e.current,
      }));
      // The witnesses the ledger requires of this log's checkpoints (issue 32): checked as signet-verify --witness does.
      const witnesses = k.witnesses.length
        ? { witnesses: k.witnesses.map((w) => parseWitnessKey(w.verifierKey)), quorum: k.witnessQuorum }
        : undefined;
      list.push({ keys: all.length ? all : [parseVerifierKey(k.verifierKey)], log, ...(witnesses ? { witnesses } : {}) });
    }
    keys = { at: Date.now(), list };
    return list;
  };

  return defineRoute({
    method: 'post',
    path: '/api/verify/signed-pdf',
    operationId: 'verifySignedPdf',
    summary: 'Verify a signed PDF: its PAdES seal, timestamp and embedded certificate evidence',
    description:
      'The body is the signed PDF as downloaded (application/pdf). The seal must cover the whole file (a later update may only add validation data), chain to the operator’s trusted roots, carry an RFC 3161 timestamp from a trusted authority, and the embedded cert.json must be included in the log and name the certificate the seal is for. Not a PDF, unsigned, or changed after sealing: 400. A server without trusted roots configured answers 404. Rate limit: 20 a minute per client address.',
    tags: ['Verification'],
    security: 'public',
    extensions: { 'x-rate-limit': '20 requests per minute per client IP' },
    rawBody: { content: { 'application/pdf': z.string().meta({ format: 'binary', description: 'The signed PDF' }) } },
    responses: {
      200: { description: 'Every check and its outcome', body: signedPdfVerificationSchema },
      ...errorResponses(400, 404, 413, 429),
    },
    async handle(_input, req, res) {
      await limit(req);
      if (!roots) {
        req.resume();
        // Not a passing outage (503 would invite retries): the operator has not configured the check.
        throw new HttpError(404, 'signed-PDF verification is not configured on this server (no trusted roots)');
      }
      const pdf = await readPdf(req, res, ctx.cfg.VERIFY_SIGNED_PDF_MAX_BYTES);
      let report;
      try {
        report = await verifySignedPdf(pdf, { trustRoots: roots, logKeys: await logKeys() });
      } catch (err) {
        if (err instanceof SignedPdfError) throw badRequest(err.message);
        throw err;
      }
      const integrity = report.checks.find((c) => c.name === 'integrity');
      if (!integrity?.ok) throw badRequest(`the seal is invalid: ${integrity?.detail ?? 'not checked'}`);
      res.setHeader('Cache-Control', 'no-store');
      const signers = report.ok ? report.certificate?.signers : undefined;
      const assurance = Array.isArray(signers) ? certificateAssuranceOf(signers as Record<string, unknown>[]) : null;
      return {
        status: 200 as const,
        body: {
          valid: report.ok,
          reference: report.reference ?? null,
          log: report.log ?? null,
          sealed_by: report.signer ?? null,
          timestamp: report.timestamp ?? null,
          assurance: assurance?.assurance ?? null,
          assurance_meaning: assurance?.assurance_meaning ?? null,
          signers: assurance?.signers ?? [],
          checks: report.checks,
        },
      };
    },
  });
}
