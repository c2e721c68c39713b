import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { text } from '../../text.js';
import { auditCall } from '../auth/client-info.js';
import { legalHoldSchema, transactionId } from './transactions.schemas.js';

const noSuchTransaction = () => new HttpError(404, 'no such transaction');
const TAGS = ['Transactions'];

export const legalHoldBody = z
  .strictObject({
    reason: text({ field: 'reason', nfc: true, max: 500 })
      .optional()
      .meta({ description: 'Why the data must be kept (at most 500 characters)' }),
  })
  .meta({ id: 'LegalHoldRequest' });

/** A PUT without a body (or with an empty one) is a hold without a reason. */
const emptyBodyIsObject = (req: Request, _res: Response, next: NextFunction) => {
  if (req.body === undefined || req.body === null) req.body = {};
  next();
};

/**
 * Deleting a whole finished transaction and the legal hold that forbids it (issue 21 item 3,
 * docs/privacy.md). DELETE /api/transactions/{id}: the document, reference photos, capture media,
 * signed PDF and audit trail and the signers' personal data go; a tombstone keeps the certificate's
 * log entry resolving, and /api/verify still answers for the certificate. 409 while pending or on
 * legal hold; 404 for another account's transaction and once deleted. PUT/DELETE
 * /api/transactions/{id}/legal-hold set and release the hold.
 */
export function deletionRoutes(ctx: GatewayContext): RouteModule {
  const routes = [holdRoute(ctx), releaseRoute(ctx), removeRoute(ctx)];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}

const noStore = { 'Cache-Control': HEADERS.cacheControl };
const target = (id: string, res: Response) => ({ ownerId: callerOf(res).ownerId, id: Number(id), test: isTestMode(res) });

function removeRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'delete',
    path: '/api/transactions/{id}',
    operationId: 'deleteTransaction',
    summary: 'Delete a whole finished transaction: document, photos, capture media, signed PDF and personal data',
    description:
      'Only once the transaction has ended (cancel a pending one first) and while it is not on legal hold (409 otherwise, nothing changed). ' +
      'The document and reference photos are deleted before the answer; the capture media and the signed PDF and audit trail right after, ' +
      'through events the other services apply. The certificate stays in the append-only log and /api/verify still answers for it. ' +
      'Afterwards the transaction is gone from the API (404, also for a second DELETE), its signing links and downloads answer 404.',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      204: { description: 'Deleted' },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, req, res) {
      // The member and client go into the deletion's event: the account audit log records it from there.
      await ctx.transaction.deleteTransaction(target(params.id, res), auditCall(req, callerOf(res).userId));
      res.status(204).end();
      return undefined;
    },
  });
}

function holdRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'put',
    path: '/api/transactions/{id}/legal-hold',
    operationId: 'setLegalHold',
    role: 'admin',
    summary: 'Put a transaction on legal hold: nothing of it is deleted until the hold is released',
    description:
      'For a pending or finished transaction. While held, DELETE of the transaction and of its biometric data answer 409, ' +
      'the retention job skips it and a signer’s erasure request is recorded but waits. Already held: the hold stays as it was.',
    tags: TAGS,
    security: 'caller',
    use: [auth, express.json({ limit: '4kb' }), emptyBodyIsObject],
    params: transactionId,
    invalidParams: noSuchTransaction,
    body: legalHoldBody,
    responses: {
      200: { description: 'The hold', body: legalHoldSchema, headers: noStore },
      ...errorResponses(400, 401, 404),
    },
    async handle({ params, body }, _req, res) {
      const h = await ctx.transaction.setLegalHold({ ...target(params.id, res), reason: body.reason ?? '' });
      return { status: 200 as const, body: { since: h.since, reason: h.reason } };
    },
  });
}

function releaseRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'delete',
    path: '/api/transactions/{id}/legal-hold',
    operationId: 'releaseLegalHold',
    role: 'admin',
    summary: 'Release the legal hold: deletion and erasure apply again',
    description: 'An erasure that fell due while held runs on the retention job’s next pass. Not held: 204, nothing changes.',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      204: { description: 'Released, or there was no hold' },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      await ctx.transaction.releaseLegalHold(target(params.id, res));
      res.status(204).end();
      return undefined;
    },
  });
}
