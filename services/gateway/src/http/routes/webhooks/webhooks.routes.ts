import express, { Router } from 'express';
import type { GatewayContext, RouteModule } from '../../context.js';
import { RATE_LIMITS, rateLimit } from '../../rate-limit.js';

/** Standard Webhooks headers, handed to billing as they came; billing verifies them. */
const header = (v: string | string[] | undefined) => (typeof v === 'string' ? v : '');

/**
 * POST /api/webhooks/<WEBHOOK_PROVIDER>: the payment provider's deliveries. The raw body bytes
 * (never parsed here: the signature covers the exact bytes) and the three headers go to billing's
 * HandleWebhook; a bad signature comes back UNAUTHENTICATED → 401, a signed body that is empty or not
 * JSON INVALID_ARGUMENT → 400 (nothing stored), a half-way failure → 5xx so the provider retries.
 * 120 requests per minute per IP.
 */
export function webhooksRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const path = `/api/webhooks/${ctx.cfg.WEBHOOK_PROVIDER}`;
  router.post(path, rateLimit(ctx, RATE_LIMITS.webhook), express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const out = await ctx.billing.handleWebhook({
      body,
      webhookId: header(req.headers['webhook-id']),
      webhookTimestamp: header(req.headers['webhook-timestamp']),
      webhookSignature: header(req.headers['webhook-signature']),
    });
    res.json({ received: true, result: out.result });
  });
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    router,
    openapi: {
      [path]: {
        post: {
          summary: 'Payment-provider webhook (Standard Webhooks signature); not for customer use',
          security: [],
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: {
            '200': {
              description: 'Verified and acknowledged (processed, duplicate, ignored or unmatched)',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      received: { type: 'boolean' },
                      result: { type: 'string', enum: ['processed', 'duplicate', 'ignored', 'unmatched'] },
                    },
                  },
                },
              },
            },
            '400': ref('BadRequest'),
            '401': ref('Unauthorized'),
            '413': { description: 'Body larger than 1 MB' },
            '429': ref('TooManyRequests'),
            '500': { description: 'Not processed; the provider retries' },
          },
        },
      },
    },
  };
}
