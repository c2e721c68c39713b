import { Router } from 'express';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';
import { auditCall } from '../auth/client-info.js';
import { transactionId } from './transactions.schemas.js';

const noSuchTransaction = () => new HttpError(404, 'no such transaction');

/**
 * DELETE /api/transactions/{id}/biometrics: the owner erases a finished transaction's biometric data
 * now (reference photo, capture videos and frames; docs/privacy.md). The transaction service answers
 * 404 for another owner's id and 409 while the transaction is pending; a second call is a 204 that
 * changes nothing. The certificate stays and keeps verifying.
 */
export function biometricsRoutes(ctx: GatewayContext): RouteModule {
  const erase = defineRoute({
    method: 'delete',
    path: '/api/transactions/{id}/biometrics',
    operationId: 'eraseTransactionBiometrics',
    summary: 'Erase a finished transaction’s biometric data now (reference photo, capture videos and frames)',
    description:
      'The reference photo is erased before the answer, the capture media right after (logged in the transaction’s events as ' +
      'biometrics_erased and media_erased). The certificate stays valid. Erasing again answers 204 and changes nothing.',
    tags: ['Transactions'],
    security: 'caller',
    use: [requireCaller(ctx)],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      204: { description: 'Erased, or already erased' },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, req, res) {
      // The member and client go into the erasure's event: the account audit log records it from there.
      await ctx.transaction.eraseBiometrics(
        { ownerId: callerOf(res).ownerId, id: Number(params.id), test: isTestMode(res) },
        auditCall(req, callerOf(res).userId),
      );
      res.status(204).end();
      return undefined;
    },
  });
  const routes = [erase];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
