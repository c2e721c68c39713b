import { Router, type Response } from 'express';
import { ledgerV1 } from '@signet/proto';
import { requireCaller, callerOf, isTestMode } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { pipePdfStream } from '../../pdf-stream.js';

/** A signed PDF can be as large as its document: the stream has a long deadline. */
const SIGNED_PDF_DEADLINE_MS = 10 * 60_000;

/**
 * Streams a stored PDF of the ledger (the signed PDF, or with `auditTrail` the audit-trail PDF) to the
 * response: the same bytes on every call. NOT_FOUND → 404 with `notFound`; FAILED_PRECONDITION (not
 * sealed yet) → 409 through the one error mapping. Also used by the download-link route.
 */
export async function streamLedgerPdf(
  ctx: GatewayContext,
  res: Response,
  input: { reference: string; auditTrail: boolean; notFound: string },
): Promise<void> {
  const stream = ctx.ledger.serverStream(
    ledgerV1.LedgerServiceService.getSignedPdf,
    { reference: input.reference, auditTrail: input.auditTrail },
    { deadlineMs: SIGNED_PDF_DEADLINE_MS },
  );
  // FAILED_PRECONDITION (not sealed yet) → 409 through the one error mapping.
  await pipePdfStream(res, stream, {
    disposition: (first) => `attachment; filename="${first.filename.replace(/[^\w.-]/g, '_') || 'signed.pdf'}"`,
    notFound: () => input.notFound,
  });
}

/** A hand-written error answer with the shared `{"detail"}` body. */
export const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const pdfOperation = (operationId: string, summary: string, description: string) => ({
  get: {
    operationId,
    summary,
    tags: ['Transactions'],
    // Every member reads the organisation's documents (roles.ts).
    'x-signet-role': 'viewer',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    responses: {
      '200': { description, content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
      '401': errorAnswer('No or an invalid API key or session'),
      '404': errorAnswer('No such transaction (or not the caller’s), or no such PDF'),
      '409': errorAnswer('Not sealed yet'),
    },
  },
});

/**
 * GET /api/transactions/{id}/signed.pdf: the signed document (issue 17) for its owner — the original
 * PDF, its audit trail and cert.json, PAdES-sealed with an RFC 3161 timestamp by the ledger once the
 * certificate is issued, the same bytes on every download. GET /api/transactions/{id}/audit-trail.pdf:
 * the audit trail on its own, stored once when the signed PDF is sealed. The transaction service
 * answers 404 for another owner's id; 409 until the ledger has sealed it.
 */
export function signedPdfRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  for (const [file, auditTrail] of [
    ['signed.pdf', false],
    ['audit-trail.pdf', true],
  ] as const) {
    router.get(`/api/transactions/:id/${file}`, requireCaller(ctx), async (req, res) => {
      const raw = String(req.params.id ?? '');
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
      const d = await ctx.transaction.getTransaction({
        ownerId: callerOf(res).ownerId,
        id: Number(raw),
        test: isTestMode(res),
      });
      if (d.summary?.status !== 'ledger_issued')
        throw new HttpError(
          409,
          `the ${auditTrail ? 'audit trail' : 'signed PDF'} is sealed once every signer has passed verification and the certificate is issued`,
        );
      await streamLedgerPdf(ctx, res, {
        reference: d.summary.reference,
        auditTrail,
        notFound: `no ${auditTrail ? 'audit-trail' : 'signed'} PDF for this transaction`,
      });
    });
  }
  return {
    router,
    openapi: {
      '/api/transactions/{id}/signed.pdf': pdfOperation(
        'getSignedPdf',
        'The signed PDF of an issued transaction: the document, its audit trail and evidence, PAdES B-T sealed',
        'The signed PDF (the same bytes on every download)',
      ),
      '/api/transactions/{id}/audit-trail.pdf': pdfOperation(
        'getAuditTrailPdf',
        "The audit-trail PDF of an issued transaction: every signer's recorded ceremony and the certificate's place in the log",
        'The audit-trail PDF (stored once when the signed PDF is sealed: the same bytes on every download)',
      ),
    },
  };
}
