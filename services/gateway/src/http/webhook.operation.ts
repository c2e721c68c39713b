import { z } from 'zod';
import { errorResponse, errorResponses, type AnyRoute } from './route.js';

/**
 * The declaration of POST /api/webhooks/<provider> for the OpenAPI document. The route itself is
 * mounted by routes/webhooks (its body handling is changed there, so it is not declared in place
 * yet); this declaration takes the place of that module's hand-written path in /api/openapi.json.
 */
export function webhookOperation(path: string): Omit<AnyRoute, 'handle'> {
  const header = (description: string) => z.string().meta({ description });
  return {
    method: 'post',
    path,
    operationId: 'receivePaymentWebhook',
    summary: 'Payment-provider webhook (Standard Webhooks signature); not for customer use',
    description:
      'Called by the payment provider only. A bad signature is 401; a failure half-way is 5xx so the provider retries.',
    tags: ['Webhooks'],
    security: 'public',
    extensions: { 'x-rate-limit': '120 requests per minute per client IP' },
    headers: z.object({
      'webhook-id': header('Standard Webhooks message id'),
      'webhook-timestamp': header('Unix seconds of the signature'),
      'webhook-signature': header('v1,<base64 HMAC-SHA256> signatures, space-separated'),
    }),
    rawBody: {
      content: {
        'application/json': z.record(z.string(), z.unknown()).meta({ description: 'The signed event, read as raw bytes' }),
      },
    },
    responses: {
      200: {
        description: 'Verified and acknowledged (processed, duplicate, ignored or unmatched)',
        body: z.object({
          received: z.boolean(),
          result: z.string().meta({ examples: ['processed', 'duplicate', 'ignored', 'unmatched'] }),
        }),
      },
      ...errorResponses(400, 401, 413, 429),
      500: errorResponse(500, 'Not processed; the provider retries'),
    },
  };
}
