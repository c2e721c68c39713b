import { Router, type Response } from 'express';
import { status } from '@grpc/grpc-js';
import { RpcError } from '@signet/kit';
import { ledgerV1 } from '@signet/proto';
import { requireCaller, callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';

/** A signed PDF can be as large as its document: the stream has a long deadline. */
const SIGNED_PDF_DEADLINE_MS = 10 * 60_000;

/** Resolves when the response can take more, or is gone. */
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/**
 * GET /api/transactions/{id}/signed.pdf: the signed document (issue 17) for its owner — the original
 * PDF, its audit trail and cert.json, PAdES-sealed with an RFC 3161 timestamp by the ledger once the
 * certificate is issued, the same bytes on every download. The transaction service answers 404 for
 * another owner's id; 409 until the ledger has sealed it.
 */
export function signedPdfRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  router.get('/api/transactions/:id/signed.pdf', requireCaller(ctx), async (req, res) => {
    const raw = String(req.params.id ?? '');
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
    const d = await ctx.transaction.getTransaction({ ownerId: callerOf(res).userId, id: Number(raw) });
    if (d.summary?.status !== 'ledger_issued')
      throw new HttpError(
        409,
        'the signed PDF is sealed once every signer has passed verification and the certificate is issued',
      );
    const stream = ctx.ledger.serverStream(
      ledgerV1.LedgerServiceService.getSignedPdf,
      { reference: d.summary.reference },
      { deadlineMs: SIGNED_PDF_DEADLINE_MS },
    );
    res.on('close', () => stream.cancel());
    let started = false;
    try {
      for await (const chunk of stream) {
        if (!started) {
          started = true;
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Length', String(chunk.size));
          res.setHeader(
            'Content-Disposition',
            `attachment; filename="${chunk.filename.replace(/[^\w.-]/g, '_') || 'signed.pdf'}"`,
          );
          res.setHeader('Cache-Control', 'private, no-store');
          res.setHeader('X-Content-Type-Options', 'nosniff');
        }
        if (chunk.data.length && !res.write(chunk.data)) await drained(res);
      }
    } catch (err) {
      if (started) return void res.destroy();
      if (err instanceof RpcError && err.code === status.CANCELLED) return; // the client went away
      if (err instanceof RpcError && err.code === status.NOT_FOUND)
        throw new HttpError(404, 'no signed PDF for this transaction');
      throw err; // FAILED_PRECONDITION (not sealed yet) → 409 through the one error mapping
    }
    res.end();
  });
  return {
    router,
    openapi: {
      '/api/transactions/{id}/signed.pdf': {
        get: {
          summary: 'The signed PDF of an issued transaction: the document, its audit trail and evidence, PAdES B-T sealed',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '200': {
              description: 'The signed PDF (the same bytes on every download)',
              content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
            },
            '401': { $ref: '#/components/responses/Unauthorized' },
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { $ref: '#/components/responses/Conflict' },
          },
        },
      },
    },
  };
}
