import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { RATE_LIMITS, rateLimitCheck } from '../../rate-limit.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { summaryJson } from './transactions.json.js';
import { summarySchema, transactionId } from './transactions.schemas.js';

const noSuchTransaction = () => new HttpError(404, 'no such transaction');

/** A live key (or a session, always live) does not see this route's transactions at all: 404, as for an unknown id. */
const testKeysOnly = (_req: Request, res: Response, next: NextFunction) => {
  if (!isTestMode(res)) throw noSuchTransaction();
  next();
};

/**
 * Creation with a test key: free, so bounded by a rate limit of its own per account (test_create);
 * live keys and sessions pass (their quota bounds them). After requireCaller.
 */
export function testCreationLimit(ctx: GatewayContext) {
  const check = rateLimitCheck(ctx, RATE_LIMITS.test_create);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (isTestMode(res)) await check(req);
    next();
  };
}

export const completeBody = z
  .strictObject({
    outcome: z.enum(['verified', 'failed']).meta({
      description: 'verified: every signer passes and the test log seals the certificate; failed: the transaction fails',
    }),
  })
  .meta({ id: 'TestCompletion' });

/**
 * Test mode (issue 16): POST /api/transactions/{id}/test/complete drives a pending test transaction to an
 * outcome without a ceremony (no face needed). Test-mode API keys only: a live key, a session and a
 * live transaction all get 404, never a hint that the route or the transaction exists.
 */
export function testModeRoutes(ctx: GatewayContext): RouteModule {
  const complete = defineRoute({
    method: 'post',
    path: '/api/transactions/{id}/test/complete',
    operationId: 'completeTestTransaction',
    summary: 'Test mode: complete a test transaction with an outcome, without a ceremony',
    description:
      'Only with a test-mode API key (sgn_test_…) and only for its test transactions; anything else is 404. ' +
      'A verified test transaction gets a certificate sealed in the test log (GET /api/ledger/public-key?log=test), never the live one.',
    tags: ['Transactions'],
    security: 'caller',
    use: [requireCaller(ctx), testKeysOnly, express.json({ limit: '4kb' })],
    params: transactionId,
    invalidParams: noSuchTransaction,
    body: completeBody,
    responses: {
      200: {
        description: 'The summary after completion',
        body: summarySchema,
        headers: { 'Cache-Control': HEADERS.cacheControl },
      },
      ...errorResponses(400, 401, 404, 409),
    },
    async handle({ params, body }, _req, res) {
      const s = await ctx.transaction.completeTestTransaction({
        ownerId: callerOf(res).ownerId,
        id: Number(params.id),
        outcome: body.outcome,
      });
      return { status: 200 as const, body: summaryJson(s) };
    },
  });
  const routes = [complete];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
