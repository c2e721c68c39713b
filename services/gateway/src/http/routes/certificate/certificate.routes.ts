import { Router } from 'express';
import { requireCaller, callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';

/**
 * GET /api/transactions/{id}/certificate.pdf: the certificate of completion for the sender. The
 * transaction service answers 404 for another owner's id; the ledger renders the PDF from the
 * sealed certificate and the transaction's event log.
 */
export function certificateRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  router.get('/api/transactions/:id/certificate.pdf', requireCaller(ctx), async (req, res) => {
    const raw = String(req.params.id ?? '');
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
    const caller = callerOf(res);
    const d = await ctx.transaction.getTransaction({ ownerId: caller.userId, id: Number(raw) });
    if (d.summary?.status !== 'ledger_issued')
      throw new HttpError(409, 'the certificate is issued once every signer has passed verification');
    const pdf = await ctx.ledger.renderCertificatePdf({
      reference: d.summary.reference,
      events: d.events.map((e) => ({ type: e.type, at: e.at, actor: e.actor, detail: e.detail })),
    });
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `attachment; filename="${pdf.filename || `${d.summary.reference}.pdf`}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(Buffer.from(pdf.pdf));
  });
  return {
    router,
    openapi: {
      '/api/transactions/{id}/certificate.pdf': {
        get: {
          summary: 'Certificate of completion (PDF) of an issued transaction',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '200': {
              description: 'The certificate PDF',
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
