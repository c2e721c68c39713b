import { WEBHOOK_EVENT_TYPES } from '@signet/proto';
import { z } from 'zod';
import { text } from '../../text.js';

// The event types an endpoint may subscribe to: the contract's list (@signet/proto), which the transaction service checks too.

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `event_types: each must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .min(1, 'event_types: name at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length * 2, 'event_types: too many entries');
const url = z
  .string({ error: 'url is required' })
  .min(1, 'url is required')
  .max(2000, 'url: must be at most 2000 characters')
  .meta({
    description: 'http(s) URL; loopback, private and link-local addresses are refused',
    example: 'https://example.com/hooks/signet',
  });
const description = text({ nfc: true, max: 500 });
const mode = z.enum(['live', 'test'], { error: 'mode: must be live or test' });

export const createBody = z
  .strictObject({
    url,
    event_types: eventTypes,
    description: description.optional(),
    mode: mode.optional().meta({
      description:
        'Which transactions’ events it receives. An API key creates endpoints of its own mode (naming the other is 400); a dashboard session chooses, default live',
    }),
  })
  .meta({ id: 'WebhookEndpointCreate' });

/** A session sees both modes; this narrows the list. An API key sees only its own mode's endpoints whatever it asks. */
export const listQuery = z.object({
  mode: mode.optional().meta({ description: 'Only endpoints of this mode (an API key sees only its own mode)' }),
});

export const updateBody = z
  .strictObject({
    url: url.optional(),
    event_types: eventTypes.optional(),
    description: description.optional(),
    enabled: z.boolean({ error: 'enabled: must be true or false' }).optional(),
  })
  .refine(
    (b) => Object.values(b).some((v) => v !== undefined),
    'body: name at least one of url, event_types, description, enabled',
  )
  .meta({ id: 'WebhookEndpointUpdate' });

export const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    enabled: z.boolean(),
    mode: z.enum(['live', 'test']).meta({
      description: 'live: receives live transactions’ events; test: test transactions’ (test keys see only these)',
    }),
    disabled_reason: z.enum(['', 'failing', 'owner']).meta({
      description: 'Empty while enabled; "failing" after persistent delivery failure; "owner" when disabled by an update',
    }),
    created_at: z.string(),
    updated_at: z.string(),
    previous_secret_expires_at: z.string().nullable().meta({
      description: 'After a roll: until when deliveries also carry the previous secret’s signature (null: no overlap)',
    }),
  })
  .meta({ id: 'WebhookEndpoint' });

export const endpointWithSecretSchema = endpointSchema
  .extend({
    secret: z.string().meta({ description: 'The Standard Webhooks signing secret (whsec_…), shown only in this answer' }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const attemptSchema = z
  .object({
    at: z.string(),
    status: z.number().int().meta({ description: 'The HTTP status; 0 when there was none' }),
    latency_ms: z.number().int(),
    result: z.enum(['success', 'http_error', 'timeout', 'network_error', 'refused_address']),
    response_snippet: z.string().meta({ description: 'At most 1 KB of the response body, or the error' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliverySchema = z
  .object({
    id: z.string(),
    endpoint_id: z.string(),
    webhook_id: z.string().meta({ description: 'The webhook-id header: the same on every attempt' }),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    transaction_id: z.number().int(),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    created_at: z.string(),
    next_attempt_at: z.string().nullable().meta({ description: 'When the next attempt is due; null unless pending' }),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const endpointParams = z.object({ id: z.string().regex(/^we_[A-Za-z0-9_-]{16}$/) });
export const deliveryParams = z.object({
  id: z.string().regex(/^we_[A-Za-z0-9_-]{16}$/),
  delivery_id: z.string().regex(/^wd_[A-Za-z0-9_-]{27}$/),
});
export const deliveriesQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .optional(),
});

/** A roll's overlap: how long the old secret still signs beside the new one. */
export const rollQuery = z.object({
  overlap_seconds: z.coerce
    .number({ error: 'overlap_seconds must be a number' })
    .int('overlap_seconds must be a whole number of seconds')
    .min(0, 'overlap_seconds must be between 0 and 604800')
    .max(604_800, 'overlap_seconds must be between 0 and 604800')
    .optional()
    .meta({
      description:
        'How long deliveries still carry the old secret’s signature beside the new one’s (default 86400, a day; at most 604800; 0: the old one stops at once)',
    }),
});
