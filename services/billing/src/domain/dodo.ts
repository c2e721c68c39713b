import { z } from 'zod';

/**
 * The Dodo Payments webhook body: `{business_id, type, timestamp, data}`, where `data` is the whole
 * Payment or Subscription object (`payload_type`) as it stood when the event was sent. Parsing is
 * lenient about fields we do not use (the provider adds fields) and strict about the ones we do.
 */
const dateish = z
  .string()
  .nullish()
  .transform((v) => {
    if (!v) return null;
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? null : d;
  });

const customer = z.object({ email: z.string().nullish() }).passthrough().nullish();
const metadata = z.record(z.string(), z.unknown()).nullish();

export const paymentSchema = z
  .object({
    payment_id: z.string().min(1),
    customer,
    metadata,
    subscription_id: z.string().min(1).nullish(),
    product_cart: z
      .array(z.object({ product_id: z.string().min(1), quantity: z.number().int().min(0).max(10_000) }).passthrough())
      .nullish(),
  })
  .passthrough();
export type DodoPayment = z.infer<typeof paymentSchema>;

export const subscriptionSchema = z
  .object({
    subscription_id: z.string().min(1),
    customer,
    metadata,
    status: z.string().min(1),
    product_id: z.string().nullish(),
    next_billing_date: dateish,
    previous_billing_date: dateish,
    cancel_at_next_billing_date: z.boolean().nullish(),
  })
  .passthrough();
export type DodoSubscription = z.infer<typeof subscriptionSchema>;

export const envelopeSchema = z
  .object({
    business_id: z.string().nullish(),
    type: z.string().min(1).max(100),
    timestamp: dateish,
    data: z.record(z.string(), z.unknown()),
  })
  .passthrough();

export type WebhookEvent =
  | { kind: 'payment'; type: string; at: Date | null; payment: DodoPayment }
  | { kind: 'subscription'; type: string; at: Date | null; subscription: DodoSubscription }
  | { kind: 'other'; type: string; at: Date | null; data: Record<string, unknown> };

/** The event types whose objects change an account; every other type is recorded and acknowledged. */
export const SUBSCRIPTION_STATE_EVENTS = /^subscription\./;
export const PAYMENT_EVENTS = new Set(['payment.succeeded']);

/** Classifies a parsed body. Throws a zod error when the body is not the documented envelope. */
export function parseEvent(body: unknown): WebhookEvent {
  const env = envelopeSchema.parse(body);
  const at = env.timestamp;
  const payloadType = env.data['payload_type'];
  if (PAYMENT_EVENTS.has(env.type) && (payloadType === undefined || payloadType === 'Payment')) {
    return { kind: 'payment', type: env.type, at, payment: paymentSchema.parse(env.data) };
  }
  if (SUBSCRIPTION_STATE_EVENTS.test(env.type) && (payloadType === undefined || payloadType === 'Subscription')) {
    return { kind: 'subscription', type: env.type, at, subscription: subscriptionSchema.parse(env.data) };
  }
  return { kind: 'other', type: env.type, at, data: env.data };
}

/**
 * A verified body: its text, its `type` (for the delivery record, `unknown` when absent, at most 100
 * characters) and the classified event (null when it is JSON but not the documented envelope). Null
 * when the body cannot be decoded at all: empty, blank, not UTF-8 or not JSON.
 */
export function parseDelivery(body: Uint8Array): { text: string; type: string; event: WebhookEvent | null } | null {
  let text: string;
  let json: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (text.trim() === '') return null;
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const type =
    typeof (json as { type?: unknown } | null)?.type === 'string'
      ? String((json as { type: string }).type).slice(0, 100)
      : 'unknown';
  try {
    return { text, type, event: parseEvent(json) };
  } catch {
    return { text, type, event: null };
  }
}

/** Our metadata `{user_id, plan}`; absent or empty on bodies the service did not create (dashboard tests). */
export function metadataOf(ev: WebhookEvent): { userId: string | null; plan: unknown; email: string | null } {
  const obj =
    ev.kind === 'payment' ? ev.payment : ev.kind === 'subscription' ? ev.subscription : (ev.data as Record<string, unknown>);
  const md = (obj['metadata'] ?? {}) as Record<string, unknown>;
  const cust = (obj['customer'] ?? {}) as Record<string, unknown>;
  const userId = typeof md['user_id'] === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(md['user_id']) ? md['user_id'] : null;
  const email = typeof cust['email'] === 'string' && cust['email'].includes('@') ? cust['email'].trim().toLowerCase() : null;
  return { userId, plan: md['plan'], email };
}
