import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { text } from '../../text.js';
import type { GatewayContext } from '../../context.js';
import { defineRoute, errorResponses, type AnyRoute } from '../../route.js';
import { noStore, notValidLink, SIGN_TAGS, type SignGuard } from './sign.guard.js';
import { tokenParams } from './sign.schemas.js';

export const MAX_DECLINE_REASON = 500;

export const declineBody = z.object({
  reason: text({ nfc: true, max: MAX_DECLINE_REASON })
    .optional()
    .meta({ description: 'Why the signer declines (shown to the sender); at most 500 characters' }),
});
export const declineSchema = z
  .object({
    status: z.literal('declined').meta({ description: 'The transaction has ended' }),
    declined_at: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'SigningDeclined' });

/** A decline without a body has no reason. */
const emptyBodyIsObject = (req: Request, _res: Response, next: NextFunction) => {
  if (req.body === undefined) req.body = {};
  next();
};

/**
 * POST /api/sign/{token}/decline: the signer declines (issue 18 item 4). Terminal for the transaction;
 * the link then answers 404 saying it was declined, and the sender is mailed.
 */
export function declineRoutes(ctx: GatewayContext, sign: SignGuard): AnyRoute[] {
  const decline = defineRoute({
    tags: SIGN_TAGS,
    security: 'public' as const,
    params: tokenParams,
    invalidParams: notValidLink,
    method: 'post',
    path: '/api/sign/{token}/decline',
    operationId: 'declineSigning',
    summary: 'Decline to sign',
    description:
      'Ends the transaction (status `declined`), with an optional reason the sender receives. The link stops working; a signer who already finished gets 409.',
    use: [sign.guard, express.json({ limit: '16kb' }), emptyBodyIsObject],
    body: declineBody,
    responses: {
      200: { description: 'Declined', body: declineSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ body }, req) {
      const r = await ctx.transaction.declineSigning({ token: sign.tokenOf(req), reason: body.reason ?? '' });
      return { status: 200 as const, body: { status: 'declined' as const, declined_at: r.declinedAt } };
    },
  });
  return [decline];
}
