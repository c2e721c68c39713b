import { Router } from 'express';
import { z } from 'zod';
import { requireCaller, callerOf, isTestMode } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';
import { transactionId } from '../transactions/transactions.schemas.js';

/**
 * GET /api/transactions/{id}/certificate.pdf: the certificate of completion for the sender. The
 * transaction service answers 404 for another owner's id; the ledger renders the PDF from the
 * sealed certificate and the transaction's event log.
 */
export function certificateRoutes(ctx: GatewayContext): RouteModule {
  const certificate = defineRoute({
    method: 'get',
    path: '/api/transactions/{id}/certificate.pdf',
    operationId: 'getCertificatePdf',
    summary: 'Certificate of completion (PDF) of an issued transaction',
    tags: ['Transactions'],
    security: 'caller',
    use: [requireCaller(ctx)],
    params: transactionId,
    invalidParams: () => new HttpError(404, 'no such transaction'),
    responses: {
      200: {
        description: 'The certificate PDF',
        content: { 'application/pdf': z.string().meta({ format: 'binary' }) },
        headers: { 'Cache-Control': { description: 'private, no-store', schema: z.string(), required: true } },
      },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, _req, res) {
      const d = await ctx.transaction.getTransaction({
        ownerId: callerOf(res).ownerId,
        id: Number(params.id),
        test: isTestMode(res),
      });
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
      return undefined;
    },
  });
  const router = Router();
  mountRoutes(router, [certificate], { validateResponses: ctx.validateResponses });
  return { router, routes: [certificate] };
}
