/**
 * A payment provider's webhook through the gateway's public route, seen where a sender sees it: the
 * account's profile. Billing's handling in depth (every event type, deliveries recorded once, a
 * crash half-way, the downgrade sweep) is services/billing/test/webhooks.int.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const CATALOG = { prod_pro: { plan: 'pro' }, prod_credits10: { credits: 10 } };

describe('POST /api/webhooks/dodo through the gateway, seen in the profile (real identity, billing)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let wh: Webhook;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'gateway'], {
      env: { PRODUCT_CATALOG: JSON.stringify(CATALOG), REDIS_KEY_PREFIX: `t_${randomBytes(4).toString('hex')}:` },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'payer' });
    wh = new Webhook(stack.secrets.WEBHOOK_SECRET);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const profile = async () => (await send(stack.gatewayUrl, 'POST', '/api/auth/me', { apiKey: acct.apiKey })).body;
  const post = (body: string, headers: Record<string, string>) =>
    send(stack.gatewayUrl, 'POST', '/api/webhooks/dodo', {
      raw: { data: Buffer.from(body), contentType: 'application/json' },
      headers,
    });
  const signed = (body: string) => {
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': wh.sign(id, at, body),
    };
  };
  const envelope = (type: string, data: Record<string, unknown>) =>
    JSON.stringify({ business_id: 'bus_test', type, timestamp: new Date().toISOString(), data });

  it('a signed payment adds its credits to the profile once; a tampered one is 401 and adds nothing', async () => {
    expect(await profile()).toMatchObject({ plan: 'Free', signature_credits: 0 });
    const body = envelope('payment.succeeded', {
      payload_type: 'Payment',
      payment_id: `pay_${randomUUID()}`,
      customer: { customer_id: 'cus_1', email: acct.email, name: 'Ada' },
      metadata: { user_id: acct.userId, plan: 'payg' },
      subscription_id: null,
      product_cart: [{ product_id: 'prod_credits10', quantity: 1 }],
      total_amount: 1000,
      currency: 'USD',
    });
    const headers = signed(body);
    const tampered = await post(body.replace('"type":', '"type": '), headers);
    expect(tampered.status).toBe(401);
    expect(tampered.body.detail).toMatch(/signature/);
    expect((await profile()).signature_credits).toBe(0);
    // Billing learns of the account from identity's user.created event: until then a delivery matches no
    // user. Each try is a new delivery of the same payment, and a payment is credited once.
    await eventually(async () => {
      const r = await post(body, signed(body));
      expect(r.status, r.text).toBe(200);
      return r.body.result === 'processed';
    }, 20_000);
    const again = await post(body, signed(body)); // the provider sends the same payment again
    expect(again.status).toBe(200);
    await eventually(async () => (await profile()).signature_credits === 10);
    expect((await profile()).signature_credits).toBe(10);
  });
});
