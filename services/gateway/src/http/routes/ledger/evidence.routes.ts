import { Router } from 'express';
import { z } from 'zod';
import { requireCaller, callerOf, isTestMode } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';
import { transactionId } from '../transactions/transactions.schemas.js';
import { bundleSchema } from './ledger.routes.js';

/**
 * GET /api/transactions/{id}/evidence.json: the owner's evidence bundle (issue 17 item 6). The public
 * cert.json plus the openings of the media commitments (their salt and the media hashes), so the owner,
 * holding the capture media, can show that the certificate commits to them (signet-verify --media).
 * The transaction service answers 404 for another owner's id; 409 until the certificate is issued.
 */
export function evidenceRoutes(ctx: GatewayContext): RouteModule {
  const evidence = defineRoute({
    method: 'get',
    path: '/api/transactions/{id}/evidence.json',
    operationId: 'getEvidenceBundle',
    summary: 'The owner’s evidence bundle: cert.json with the openings of the media commitments',
    description:
      'The bundle of GET /api/ledger/proof/{reference} plus commitment_openings: the salt and, per signer, the SHA-256 of the capture video, ' +
      'still frame and reference photo the certificate’s commitments are made of. Verify with `signet-verify evidence.json document.pdf --key <key file> [--media video.webm]`.',
    tags: ['Transactions'],
    security: 'caller',
    use: [requireCaller(ctx)],
    params: transactionId,
    invalidParams: () => new HttpError(404, 'no such transaction'),
    responses: {
      200: {
        description: 'The bundle with the openings',
        body: bundleSchema,
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
        throw new HttpError(409, 'the evidence exists once every signer has passed verification and the certificate is issued');
      const { bundleJson } = await ctx.ledger.getProofBundle({
        reference: d.summary.reference,
        documentSha256Prefix: d.documentSha256.toLowerCase(),
        revealCommitments: true,
      });
      res.setHeader('Content-Disposition', `attachment; filename="${d.summary.reference}.evidence.json"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.type('application/json').send(bundleJson);
      return undefined;
    },
  });
  const router = Router();
  mountRoutes(router, [evidence], { validateResponses: ctx.validateResponses });
  return { router, routes: [evidence] };
}
