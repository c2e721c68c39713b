/**
 * The event types a customer's webhook endpoint can subscribe to: one list for the gateway, which
 * validates and documents them (the OpenAPI enum), and the transaction service, which checks and
 * emits them. Part of the public contract: the OpenAPI document lists them.
 */
export const WEBHOOK_EVENT_TYPES = [
  'transaction.created',
  'signer.link_sent',
  'signer.opened',
  'signer.consented',
  'signer.verified',
  'signer.failed',
  'signer.declined',
  'transaction.completed',
  'transaction.expired',
  'transaction.cancelled',
  'certificate.issued',
  'signed_document.ready',
  'bulk.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (t: string): t is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);
