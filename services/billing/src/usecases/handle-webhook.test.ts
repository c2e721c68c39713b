import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { parseCatalog } from '../domain/catalog.js';
import { createVerifier } from '../domain/signature.js';
import { fakeAccounts, fakeDeliveries, fakeMetrics, fakeUsers, silentLogger } from '../../test/fakes.js';
import { handleWebhook, MAX_WEBHOOK_BODY } from './handle-webhook.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const signer = new Webhook(secret);
const catalog = parseCatalog(JSON.stringify({ p_pro: { plan: 'pro' }, p_c5: { credits: 5 } }));

function setup() {
  const acc = fakeAccounts();
  const deliveries = fakeDeliveries();
  const users = fakeUsers([['u1', 'ada@example.test']]);
  const m = fakeMetrics();
  let kicks = 0;
  const deps = {
    accounts: acc.accounts,
    change: acc.change,
    deliveries,
    users,
    verifyWebhook: createVerifier(secret),
    catalog,
    graceMs: 7 * 86_400_000,
    metrics: m.metrics,
    logger: silentLogger,
    onAccountChanged: () => void kicks++,
  };
  return { deps, acc, deliveries, kicks: () => kicks, ...m };
}

function signed(body: unknown, id = `msg_${randomBytes(6).toString('hex')}`) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const at = new Date();
  return {
    body: bytes,
    headers: { id, timestamp: String(Math.floor(at.getTime() / 1000)), signature: signer.sign(id, at, bytes) },
  };
}

const creditPack = (payment_id: string, customer = { email: 'ADA@example.test ' }) => ({
  type: 'payment.succeeded',
  timestamp: new Date().toISOString(),
  data: { payment_id, customer, subscription_id: null, product_cart: [{ product_id: 'p_c5', quantity: 2 }] },
});

describe('handleWebhook', () => {
  it('refuses a bad signature with UNAUTHENTICATED and records nothing', async () => {
    const { deps, deliveries, counted } = setup();
    const d = signed(creditPack('pay1'));
    const tampered = { ...d, body: Buffer.from(d.body.toString().replace('pay1', 'pay2')) };
    await expect(handleWebhook(deps, tampered)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(
      handleWebhook(deps, { ...d, headers: { ...d.headers, timestamp: `${d.headers.timestamp}x` } }),
    ).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    expect(deliveries.all.size).toBe(0);
    expect(counted('webhooks', { result: 'unauthenticated' })).toBe(2);
  });

  it('refuses a body over 1 MB before anything else', async () => {
    const { deps, counted } = setup();
    const d = signed('x'.repeat(MAX_WEBHOOK_BODY + 1));
    await expect(handleWebhook(deps, d)).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(counted('webhooks')).toBe(0);
  });

  it('applies a delivery once: the customer found by email, credits granted, the relay woken; a retry is a duplicate', async () => {
    const { deps, acc, deliveries, kicks, counted } = setup();
    const d = signed(creditPack('pay1'));
    expect(await handleWebhook(deps, d)).toBe('processed');
    expect(acc.latest.get('u1')?.credits_granted).toBe(10);
    expect(deliveries.all.get(d.headers.id)).toMatchObject({
      state: 'done',
      result: 'processed',
      outcome: 'credits_added',
      user_id: 'u1',
    });
    expect(kicks()).toBe(1);
    expect(await handleWebhook(deps, d)).toBe('duplicate');
    expect(acc.latest.get('u1')?.credits_granted).toBe(10);
    expect(counted('webhooks', { result: 'duplicate' })).toBe(1);
    expect(counted('webhookEffects', { kind: 'payment', outcome: 'credits_added' })).toBe(1);
  });

  it('runs a delivery recorded but never finished again, and a new webhook-id of the same payment changes nothing', async () => {
    const { deps, acc, deliveries, kicks, counted } = setup();
    const d = signed(creditPack('pay1'));
    await deliveries.record({
      webhook_id: d.headers.id,
      type: 'payment.succeeded',
      event_at: null,
      received_at: new Date(),
      body: '',
    });
    expect(await handleWebhook(deps, d)).toBe('processed');
    expect(counted('webhooks', { result: 'reprocessed' })).toBe(1);
    expect(await handleWebhook(deps, signed(creditPack('pay1')))).toBe('processed');
    expect(acc.latest.get('u1')?.credits_granted).toBe(10);
    expect(kicks()).toBe(1);
  });

  it('refuses a signed body that is empty, blank, not JSON or not UTF-8 with INVALID_ARGUMENT and records nothing', async () => {
    const { deps, deliveries, counted } = setup();
    const bodies = ['', '  \n', 'not json', '{"type":"payment.succeeded"', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])];
    for (const body of bodies) {
      await expect(handleWebhook(deps, signed(body)), JSON.stringify(String(body))).rejects.toMatchObject({
        kind: 'invalid_argument',
      });
    }
    expect(deliveries.all.size).toBe(0);
    expect(counted('webhooks', { result: 'undecodable' })).toBe(bodies.length);
    expect(counted('webhooks', { result: 'unauthenticated' })).toBe(0);
  });

  it('acknowledges and keeps malformed, other-type and unmatched deliveries without touching an account', async () => {
    const { deps, acc, deliveries } = setup();
    const malformed = signed({ hello: 'world' });
    expect(await handleWebhook(deps, malformed)).toBe('ignored');
    expect(deliveries.all.get(malformed.headers.id)).toMatchObject({ type: 'unknown', result: 'ignored', outcome: 'malformed' });
    const other = signed({ type: 'refund.succeeded', data: {} });
    expect(await handleWebhook(deps, other)).toBe('ignored');
    expect(deliveries.all.get(other.headers.id)).toMatchObject({ type: 'refund.succeeded', result: 'ignored', outcome: null });
    const stranger = signed(creditPack('pay9', { email: 'bob@example.test' }));
    expect(await handleWebhook(deps, stranger)).toBe('unmatched');
    expect(acc.latest.size).toBe(0);
  });
});
