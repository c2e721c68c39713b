import { callerOf, isTestMode, type requireCaller } from '../../auth.js';
import type { GatewayContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS } from '../../route.js';
import { summaryJson } from './transactions.json.js';
import { summarySchema, transactionId } from './transactions.schemas.js';

export type CallerAuth = ReturnType<typeof requireCaller>;
const noSuchTransaction = () => new HttpError(404, 'no such transaction');

/** The sender's actions on one pending transaction: resend its links, cancel it (part of transactionsRoutes). */
export function transactionActionRoutes(ctx: GatewayContext, auth: CallerAuth, tags: string[]) {
  const noStore = { 'Cache-Control': HEADERS.cacheControl };

  const resend = defineRoute({
    method: 'post',
    path: '/api/transactions/{id}/resend',
    operationId: 'resendTransaction',
    summary: 'Re-send the signing link',
    description: 'Only for a transaction not yet in a terminal state, at most once a minute; the state does not change.',
    tags,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      200: { description: 'The summary after re-sending', body: summarySchema, headers: noStore },
      ...errorResponses(401, 404, 409, 429),
    },
    async handle({ params }, _req, res) {
      const s = await ctx.transaction.resendTransaction({
        ownerId: callerOf(res).ownerId,
        id: Number(params.id),
        test: isTestMode(res),
      });
      return { status: 200 as const, body: summaryJson(s) };
    },
  });

  const cancel = defineRoute({
    method: 'post',
    path: '/api/transactions/{id}/cancel',
    operationId: 'cancelTransaction',
    summary: 'Cancel a pending transaction',
    description: 'Irreversible: its signing links stop working and no certificate is issued.',
    tags,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      200: { description: 'The summary, cancelled', body: summarySchema, headers: noStore },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, _req, res) {
      const s = await ctx.transaction.cancelTransaction({
        ownerId: callerOf(res).ownerId,
        id: Number(params.id),
        test: isTestMode(res),
      });
      return { status: 200 as const, body: summaryJson(s) };
    },
  });

  return [resend, cancel];
}
