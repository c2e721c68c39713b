import { Router } from 'express';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';

/**
 * DELETE /api/transactions/{id}/biometrics: the owner erases a finished transaction's biometric data
 * now (reference photo, capture videos and frames; docs/privacy.md). The transaction service answers
 * 404 for another owner's id and 409 while the transaction is pending; a second call is a 204 that
 * changes nothing. The certificate stays and keeps verifying.
 */
export function biometricsRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  router.delete('/api/transactions/:id/biometrics', requireCaller(ctx), async (req, res) => {
    const raw = String(req.params.id ?? '');
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
    await ctx.transaction.eraseBiometrics({ ownerId: callerOf(res).userId, id: Number(raw), test: isTestMode(res) });
    res.status(204).end();
  });
  return {
    router,
    openapi: {
      '/api/transactions/{id}/biometrics': {
        delete: {
          summary: 'Erase a finished transaction’s biometric data now (reference photo, capture videos and frames)',
          description:
            'The reference photo is erased before the answer, the capture media right after (logged in the transaction’s events as ' +
            'biometrics_erased and media_erased). The certificate stays valid. Erasing again answers 204 and changes nothing.',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '204': { description: 'Erased, or already erased' },
            '401': { $ref: '#/components/responses/Unauthorized' },
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { $ref: '#/components/responses/Conflict' },
          },
        },
      },
    },
  };
}
