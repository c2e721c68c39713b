import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Connection } from 'mongoose';
import { connectBus, connectMongo, createClient, Metrics, publishEvent, type Bus, type ServiceClient } from '@signet/kit';
import { billingV1, events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../../../test/harness/services.js';

const CATALOG = {
  prod_pro: { plan: 'pro' },
  prod_firm: { plan: 'firm' },
  prod_credits10: { credits: 10 },
  prod_credits1: { credits: 1 },
};
const GRACE_SECONDS = 3;

/**
 * Billing's webhook handling, entered through the gateway's public route and observed through
 * billing's own gRPC API and database (deliveries recorded once, a crash half-way replayed).
 * Moved from test/e2e/: every assertion reads billing's internals; the public path (a signed
 * webhook changing what the account's profile shows) is in test/e2e/billing-webhooks.test.ts.
 */
describe('POST /api/webhooks/dodo through gateway → billing', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let db: Connection;
  let billing: ServiceClient<billingV1.BillingServiceClient>;
  let wh: Webhook;

  beforeAll(async () => {
    stack = await startServices(['billing', 'gateway'], {
      env: {
        PRODUCT_CATALOG: JSON.stringify(CATALOG),
        GRACE_PERIOD_DAYS: String(GRACE_SECONDS / 86_400),
        SWEEP_INTERVAL_MS: '250',
        REDIS_KEY_PREFIX: `t_${randomBytes(4).toString('hex')}:`,
      },
    });
    bus = await connectBus(infra().NATS_URL, 'test');
    db = await connectMongo(infra().MONGO_URL, stack.dbs.billing!);
    billing = createClient(billingV1.BillingServiceClient, stack.env.BILLING_ADDR!, { metrics: new Metrics('test') });
    wh = new Webhook(stack.secrets.WEBHOOK_SECRET);
  });
  afterAll(async () => {
    billing?.close();
    await bus?.nc.drain();
    await db?.close();
    await stack?.stop();
  });

  /** A user identity announced (as identity does on registration) and known to billing. */
  async function newUser() {
    const userId = `u${randomBytes(6).toString('hex')}`;
    const email = `${userId}@example.com`;
    const eventId = randomUUID();
    await publishEvent(bus, events.userCreated, {
      eventId,
      payload: eventsV1.UserCreated.encode({
        eventId,
        occurredAt: new Date().toISOString(),
        userId,
        email,
        orgName: 'Acme',
      }).finish(),
    });
    await eventually(async () => (await db.collection('users').countDocuments({ user_id: userId })) === 1);
    return { userId, email };
  }

  const account = (userId: string) => billing.getAccount({ userId });

  function signed(body: string, opts: { id?: string; at?: Date } = {}) {
    const id = opts.id ?? `msg_${randomUUID()}`;
    const at = opts.at ?? new Date();
    return {
      body,
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': wh.sign(id, at, body),
      },
    };
  }

  const post = (d: { body: string; headers: Record<string, string> }) =>
    fetch(`${stack.gatewayUrl}/api/webhooks/dodo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...d.headers },
      body: d.body,
    });

  const envelope = (type: string, data: Record<string, unknown>, at = new Date()) =>
    JSON.stringify({ business_id: 'bus_test', type, timestamp: at.toISOString(), data });

  const payment = (u: { userId: string; email: string }, o: Record<string, unknown>) => ({
    payload_type: 'Payment',
    payment_id: `pay_${randomUUID()}`,
    customer: { customer_id: 'cus_1', email: u.email, name: 'Ada' },
    metadata: { user_id: u.userId, plan: 'payg' },
    subscription_id: null,
    product_cart: null,
    total_amount: 1000,
    currency: 'USD',
    ...o,
  });

  const subscription = (u: { userId: string; email: string }, o: Record<string, unknown>) => ({
    payload_type: 'Subscription',
    subscription_id: 'sub_1',
    customer: { customer_id: 'cus_1', email: u.email, name: 'Ada' },
    metadata: { user_id: u.userId, plan: 'pro' },
    status: 'active',
    product_id: 'prod_pro',
    next_billing_date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    previous_billing_date: new Date().toISOString(),
    cancel_at_next_billing_date: false,
    ...o,
  });

  async function deliver(type: string, data: Record<string, unknown>, at?: Date) {
    const res = await post(signed(envelope(type, data, at)));
    expect(res.status).toBe(200);
    return (await res.json()) as { result: string };
  }

  it('payment.succeeded (pay-as-you-go) adds Σ quantity × credits of the cart', async () => {
    const u = await newUser();
    const out = await deliver(
      'payment.succeeded',
      payment(u, {
        product_cart: [
          { product_id: 'prod_credits10', quantity: 2 },
          { product_id: 'prod_credits1', quantity: 3 },
        ],
      }),
    );
    expect(out.result).toBe('processed');
    expect(await account(u.userId)).toMatchObject({ plan: 'Free', signatureCredits: 23, pastDue: false });
  });

  it('payment.succeeded (subscription charge) raises the plan; the user is found by email when metadata has no user id', async () => {
    const u = await newUser();
    await deliver('payment.succeeded', payment(u, { subscription_id: 'sub_x', metadata: { plan: 'firm' } }));
    expect(await account(u.userId)).toMatchObject({ plan: 'Firm', monthlyLimit: 150, signatureCredits: 0 });
  });

  it('subscription.active sets the tier from the product; renewed with the same plan changes nothing but the period', async () => {
    const u = await newUser();
    await deliver(
      'subscription.active',
      subscription(u, { product_id: 'prod_firm', metadata: { user_id: u.userId, plan: 'pro' } }),
    );
    const active = await account(u.userId);
    expect(active).toMatchObject({ plan: 'Firm', monthlyLimit: 150, pastDue: false, downgradeAt: '' });
    const next = new Date(Date.now() + 60 * 86_400_000).toISOString();
    await deliver(
      'subscription.renewed',
      subscription(u, { product_id: 'prod_firm', next_billing_date: next }),
      new Date(Date.now() + 1000),
    );
    expect(await account(u.userId)).toEqual(active);
  });

  it('subscription.cancelled keeps the plan until next_billing_date, then the sweep downgrades to Free', async () => {
    const u = await newUser();
    await deliver('subscription.active', subscription(u, {}));
    const end = new Date(Date.now() + 2500);
    await deliver(
      'subscription.cancelled',
      subscription(u, { status: 'cancelled', next_billing_date: end.toISOString() }),
      new Date(Date.now() + 1000),
    );
    const scheduled = await account(u.userId);
    expect(scheduled).toMatchObject({ plan: 'Pro', downgradeAt: end.toISOString() });
    const after = await eventually(async () => {
      const a = await account(u.userId);
      return a.plan === 'Free' ? a : undefined;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(end.getTime());
    expect(after).toMatchObject({ plan: 'Free', monthlyLimit: 3, downgradeAt: '' });
  });

  it('subscription.expired downgrades at once', async () => {
    const u = await newUser();
    await deliver('subscription.active', subscription(u, {}));
    expect((await account(u.userId)).plan).toBe('Pro');
    await deliver('subscription.expired', subscription(u, { status: 'expired' }), new Date(Date.now() + 1000));
    expect(await account(u.userId)).toMatchObject({ plan: 'Free', downgradeAt: '', pastDue: false });
  });

  it('subscription.failed flags past due, keeps the plan for the grace period, then downgrades', async () => {
    const u = await newUser();
    await deliver('subscription.active', subscription(u, {}));
    const failedAt = new Date(Date.now() + 1000);
    await deliver('subscription.failed', subscription(u, { status: 'failed' }), failedAt);
    const pastDue = await account(u.userId);
    expect(pastDue).toMatchObject({
      plan: 'Pro',
      pastDue: true,
      pastDueSince: new Date(Math.floor(failedAt.getTime())).toISOString(),
    });
    expect(new Date(pastDue.downgradeAt).getTime()).toBe(failedAt.getTime() + GRACE_SECONDS * 1000);
    await eventually(async () => (await account(u.userId)).plan === 'Free');
  });

  it('acknowledges other verified types and bodies that match no user, recording them', async () => {
    const other = signed(envelope('refund.succeeded', { payload_type: 'Refund', refund_id: 'ref_1', payment_id: 'pay_1' }));
    const r1 = await post(other);
    expect(r1.status).toBe(200);
    expect(await r1.json()).toMatchObject({ result: 'ignored' });
    const dashboardTest = signed(
      envelope('payment.succeeded', {
        ...payment({ userId: 'x', email: 'nobody@example.com' }, {}),
        metadata: {},
        customer: { email: 'nobody@example.com' },
      }),
    );
    const r2 = await post(dashboardTest);
    expect(r2.status).toBe(200);
    expect(await r2.json()).toMatchObject({ result: 'unmatched' });
    const recorded = await db
      .collection('webhook_deliveries')
      .find({ webhook_id: { $in: [other.headers['webhook-id'], dashboardTest.headers['webhook-id']] } })
      .toArray();
    expect(recorded.map((d) => d['result']).sort()).toEqual(['ignored', 'unmatched']);
  });

  it('holds a payment for a user billing does not know yet and applies it, once, when user.created arrives', async () => {
    // A sender who pays right after signing up: the provider's webhook can beat identity's event.
    const unknownUser = async () => {
      const userId = `u${randomBytes(6).toString('hex')}`;
      const u = { userId, email: `${userId}@example.com` };
      const paid = await deliver(
        'payment.succeeded',
        payment(u, { product_cart: [{ product_id: 'prod_credits10', quantity: 2 }] }),
      );
      expect(paid.result).toBe('unmatched');
      return u;
    };
    const announce = async (u: { userId: string; email: string }) => {
      const eventId = randomUUID();
      await publishEvent(bus, events.userCreated, {
        eventId,
        payload: eventsV1.UserCreated.encode({
          eventId,
          occurredAt: new Date().toISOString(),
          userId: u.userId,
          email: u.email,
          orgName: 'Acme',
        }).finish(),
      });
    };
    const u = await unknownUser();
    await announce(u);
    await eventually(async () => (await account(u.userId)).signatureCredits === 20);
    // A second announcement (a redelivery, or identity replaying) applies nothing twice. The
    // consumer handles one event at a time in order: once a later user's held payment is applied,
    // the second announcement has been handled.
    await announce(u);
    const later = await unknownUser();
    await announce(later);
    await eventually(async () => (await account(later.userId)).signatureCredits === 20);
    expect(await account(u.userId)).toMatchObject({ signatureCredits: 20 });
    expect(await db.collection('webhook_deliveries').countDocuments({ result: 'unmatched', 'held_for.user_id': u.userId })).toBe(
      0,
    );
  });

  it('answers 401 and stores nothing for a body one space off, a 301 s old timestamp, or no signature', async () => {
    const u = await newUser();
    const body = envelope('payment.succeeded', payment(u, { product_cart: [{ product_id: 'prod_credits10', quantity: 1 }] }));
    const good = signed(body);
    const tampered = { ...good, body: body.replace('"type":', '"type": ') };
    expect(tampered.body.length).toBe(body.length + 1);
    const old = signed(body, { at: new Date(Date.now() - 301_000) });
    const unsigned = { body, headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) } };
    const before = await db.collection('webhook_deliveries').countDocuments();
    for (const bad of [tampered, old, unsigned]) {
      const res = await post(bad);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/signature/);
    }
    expect(await db.collection('webhook_deliveries').countDocuments()).toBe(before);
    expect((await account(u.userId)).signatureCredits).toBe(0);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.billing}/metrics`)).text();
    expect(metrics).toMatch(/signet_billing_webhooks_total\{[^}]*result="unauthenticated"[^}]*\} [3-9]/);
  });

  it('answers 400 with a detail and stores nothing for a correctly signed body that is empty or not JSON', async () => {
    const before = await db.collection('webhook_deliveries').countDocuments();
    for (const body of ['', 'not json']) {
      const d = signed(body);
      const res = await fetch(`${stack.gatewayUrl}/api/webhooks/dodo`, { method: 'POST', headers: d.headers, body: d.body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/empty or not JSON/);
      expect(await db.collection('webhook_deliveries').countDocuments({ webhook_id: d.headers['webhook-id'] })).toBe(0);
    }
    expect(await db.collection('webhook_deliveries').countDocuments()).toBe(before);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.billing}/metrics`)).text();
    expect(metrics).toMatch(/signet_billing_webhooks_total\{[^}]*result="undecodable"[^}]*\} 2/);
  });

  it('accepts a header carrying a stale and a valid signature', async () => {
    const u = await newUser();
    const d = signed(envelope('payment.succeeded', payment(u, { product_cart: [{ product_id: 'prod_credits1', quantity: 1 }] })));
    const stale = new Webhook(`whsec_${randomBytes(24).toString('base64')}`).sign(d.headers['webhook-id'], new Date(), d.body);
    const res = await post({
      ...d,
      headers: { ...d.headers, 'webhook-signature': `${stale} ${d.headers['webhook-signature']}` },
    });
    expect(res.status).toBe(200);
    expect((await account(u.userId)).signatureCredits).toBe(1);
  });

  it('credits once when the same delivery is posted 10 times at once', async () => {
    const u = await newUser();
    const d = signed(
      envelope('payment.succeeded', payment(u, { product_cart: [{ product_id: 'prod_credits10', quantity: 1 }] })),
    );
    const statuses = await Promise.all(Array.from({ length: 10 }, () => post(d).then((r) => r.status)));
    expect(statuses).toEqual(Array(10).fill(200));
    expect((await account(u.userId)).signatureCredits).toBe(10);
    expect(await db.collection('webhook_deliveries').countDocuments({ webhook_id: d.headers['webhook-id'] })).toBe(1);
  });

  it('credits once per payment_id even under different webhook ids, and a retry after a half-way failure completes once', async () => {
    const u = await newUser();
    const data = payment(u, { product_cart: [{ product_id: 'prod_credits10', quantity: 1 }] });
    await deliver('payment.succeeded', data);
    await deliver('payment.succeeded', data);
    expect((await account(u.userId)).signatureCredits).toBe(10);
    // A crash after the account write and before the delivery was marked done: the provider retries it.
    const d = signed(envelope('payment.succeeded', payment(u, { product_cart: [{ product_id: 'prod_credits1', quantity: 1 }] })));
    expect((await post(d)).status).toBe(200);
    await db
      .collection('webhook_deliveries')
      .updateOne({ webhook_id: d.headers['webhook-id'] }, { $set: { state: 'received', result: null } });
    const retry = await post(d);
    expect(retry.status).toBe(200);
    expect((await account(u.userId)).signatureCredits).toBe(11);
    expect(await db.collection('webhook_deliveries').findOne({ webhook_id: d.headers['webhook-id'] })).toMatchObject({
      state: 'done',
      result: 'processed',
    });
  });

  it('leaves the same final state for the sibling events of one purchase, shuffled or in order', async () => {
    const inOrder = await newUser();
    const shuffled = await newUser();
    const t0 = Date.now();
    const nbd = new Date(t0 + 30 * 86_400_000).toISOString();
    const siblings = (u: { userId: string; email: string }) => {
      const sub = (status: string) =>
        subscription(u, {
          subscription_id: `sub_${u.userId}`,
          status,
          next_billing_date: nbd,
          metadata: { user_id: u.userId, plan: 'pro' },
        });
      return [
        envelope(
          'payment.succeeded',
          payment(u, {
            payment_id: `pay_${u.userId}`,
            subscription_id: `sub_${u.userId}`,
            metadata: { user_id: u.userId, plan: 'pro' },
          }),
          new Date(t0),
        ),
        envelope('subscription.active', sub('active'), new Date(t0 + 1)),
        envelope('subscription.renewed', sub('active'), new Date(t0 + 2)),
        envelope('subscription.updated', sub('active'), new Date(t0 + 3)),
      ];
    };
    for (const body of siblings(inOrder)) expect((await post(signed(body))).status).toBe(200);
    const bodies = siblings(shuffled);
    for (const i of [3, 1, 0, 2]) expect((await post(signed(bodies[i]!))).status).toBe(200);
    const a = await account(inOrder.userId);
    const b = await account(shuffled.userId);
    expect(a).toMatchObject({ plan: 'Pro', pastDue: false, downgradeAt: '' });
    expect({ ...b, userId: '' }).toEqual({ ...a, userId: '' });
    // A stale object (older than the last applied) changes nothing.
    await deliver(
      'subscription.cancelled',
      subscription(shuffled, { subscription_id: `sub_${shuffled.userId}`, status: 'cancelled' }),
      new Date(t0 - 1000),
    );
    expect({ ...(await account(shuffled.userId)), userId: '' }).toEqual({ ...a, userId: '' });
  });

  it('limits webhook receipt to 120 requests a minute per IP (429 with Retry-After)', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 130 }, () =>
        post({ body: '{}', headers: {} }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after') })),
      ),
    );
    const limited = statuses.filter((s) => s.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(Number(limited[0]!.retry)).toBeGreaterThan(0);
    expect(statuses.filter((s) => s.status !== 429).every((s) => s.status === 401)).toBe(true);
  });
});
