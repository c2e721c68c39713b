import { Webhook } from 'standardwebhooks';

export type WebhookHeaders = { id: string; timestamp: string; signature: string };
export type WebhookVerifier = (body: Buffer, h: WebhookHeaders) => boolean;

/**
 * Standard Webhooks verification (the `standardwebhooks` package, ≥ 1.1: it refuses an empty key):
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>` with the base64-decoded secret,
 * any `v1,` entry of the space-separated signature list may match (constant-time compare), and the
 * timestamp must lie within 5 minutes of now, either way. Returns false on any failure.
 */
export function createVerifier(secret: string): WebhookVerifier {
  const wh = new Webhook(secret);
  return (body: Buffer, h: WebhookHeaders): boolean => {
    // The package parses the timestamp with parseInt, which would accept "123abc".
    if (!/^\d{1,12}$/.test(h.timestamp) || !h.id || h.id.length > 256 || !h.signature || h.signature.length > 4096) return false;
    try {
      wh.verify(
        body,
        { 'webhook-id': h.id, 'webhook-timestamp': h.timestamp, 'webhook-signature': h.signature },
        { jsonParse: false },
      );
      return true;
    } catch {
      return false;
    }
  };
}
