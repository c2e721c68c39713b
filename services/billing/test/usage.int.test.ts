import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { status } from '@grpc/grpc-js';
import { Redis } from 'ioredis';
import { connectBus, createClient, Metrics, parseConfig, RpcError, STREAM, type Bus, type ServiceClient } from '@signet/kit';
import { billingV1, events, eventsV1 } from '@signet/proto';
import { freePort } from '../../../test/harness/local-infra.js';
import { billingConfigSchema } from '../src/config.js';
import { startBilling } from '../src/app.js';
import { createLease } from '../src/jobs/lease.js';

describe('billing ConsumeSignature / RefundSignature / GetAccount against FerretDB', () => {
  let svc: Awaited<ReturnType<typeof startBilling>>;
  let client: ServiceClient<billingV1.BillingServiceClient>;
  let bus: Bus;
  let redis: Redis;

  beforeAll(async () => {
    const infra = inject('infra');
    const grpcPort = await freePort();
    svc = await startBilling(
      parseConfig(billingConfigSchema, {
        MONGO_URL: infra.MONGO_URL,
        MONGO_DB: `t_${randomBytes(4).toString('hex')}_billing`,
        NATS_URL: infra.NATS_URL,
        REDIS_URL: infra.REDIS_URL,
        GRPC_PORT: String(grpcPort),
        OPS_PORT: String(await freePort()),
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
      }),
    );
    client = createClient(billingV1.BillingServiceClient, `127.0.0.1:${grpcPort}`, {
      metrics: new Metrics('test'),
      defaultDeadlineMs: 20_000,
    });
    bus = await connectBus(infra.NATS_URL, 'test');
    redis = new Redis(infra.REDIS_URL);
  });
  afterAll(async () => {
    client?.close();
    redis?.disconnect();
    await bus?.nc.drain();
    await svc?.stop();
  });

  const user = () => `u${randomBytes(6).toString('hex')}`;
  const consume = (userId: string, consumptionId: string = randomUUID()) => client.consumeSignature({ userId, consumptionId });

  it('50 concurrent consumptions on a fresh Free account: exactly 3 succeed, the rest are QUOTA_EXHAUSTED', async () => {
    const u = user();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => consume(u)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(3);
    for (const r of results) {
      if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(RpcError);
        expect((r.reason as RpcError).code).toBe(status.FAILED_PRECONDITION);
        expect((r.reason as RpcError).reason).toBe('QUOTA_EXHAUSTED');
      }
    }
    expect(await client.getAccount({ userId: u })).toMatchObject({
      plan: 'Free',
      monthlyLimit: 3,
      monthlyUsed: 3,
      signatureCredits: 0,
    });
    const metrics = await (await fetch(`http://127.0.0.1:${svc.opsPort}/metrics`)).text();
    expect(metrics).toMatch(/signet_billing_quota_rejections_total\{[^}]*\} (4[7-9]|[5-9]\d)/);
  });

  it('is idempotent by consumption id, even for concurrent copies', async () => {
    const u = user();
    const id = randomUUID();
    const copies = await Promise.all(Array.from({ length: 10 }, () => consume(u, id)));
    expect(copies.every((c) => c.consumptionId === id && c.source === 'quota')).toBe(true);
    expect(await consume(u, id)).toMatchObject({ consumptionId: id, source: 'quota' });
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(1);
  });

  const grant = (u: string, n: number) =>
    svc.change(u, (a) => ({ state: { ...a, credits_granted: a.credits_granted + n }, outcome: 'test', changed: true }), 'test');

  it('uses credits after the quota (concurrently: never more than granted), and refunds to the source, once', async () => {
    const u = user();
    for (let i = 0; i < 3; i++) await consume(u);
    await grant(u, 2);
    const burst = await Promise.allSettled(Array.from({ length: 10 }, () => consume(u)));
    const paid = burst
      .filter((r): r is PromiseFulfilledResult<billingV1.ConsumeSignatureResponse> => r.status === 'fulfilled')
      .map((r) => r.value);
    expect(paid.map((p) => p.source)).toEqual(['credit', 'credit']);
    expect(await client.getAccount({ userId: u })).toMatchObject({ monthlyUsed: 3, signatureCredits: 0 });
    const refunds = await Promise.all(
      Array.from({ length: 5 }, () => client.refundSignature({ userId: u, consumptionId: paid[0]!.consumptionId })),
    );
    expect(refunds).toEqual(Array(5).fill({ refunded: true }));
    expect(await client.getAccount({ userId: u })).toMatchObject({ monthlyUsed: 3, signatureCredits: 1 });
    await expect(consume(u, paid[0]!.consumptionId)).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'CONFLICT',
    });
    expect((await consume(u)).source).toBe('credit');
    await expect(consume(u)).rejects.toMatchObject({ reason: 'QUOTA_EXHAUSTED' });
  });

  it('refunds a quota consumption to the month, and answers false for an unknown id or another user', async () => {
    const u = user();
    const c = await consume(u);
    expect(c.source).toBe('quota');
    expect(await client.refundSignature({ userId: u, consumptionId: c.consumptionId })).toEqual({ refunded: true });
    expect(await client.refundSignature({ userId: u, consumptionId: c.consumptionId })).toEqual({ refunded: true });
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(0);
    expect(await client.refundSignature({ userId: user(), consumptionId: c.consumptionId })).toEqual({ refunded: false });
    expect(await client.refundSignature({ userId: u, consumptionId: 'never-made' })).toEqual({ refunded: false });
  });

  it('finishes a refund interrupted after its record was written', async () => {
    const u = user();
    const c = await consume(u);
    const rec = await svc.repos.consumptions.find(u, c.consumptionId);
    await svc.repos.consumptions.refunds.create({
      user_id: u,
      consumption_id: c.consumptionId,
      source: rec!.source,
      period: rec!.period,
      created_at: new Date(),
    });
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(1);
    expect(await client.refundSignature({ userId: u, consumptionId: c.consumptionId })).toEqual({ refunded: true });
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(0);
  });

  it("counts usage per UTC month: last month's consumptions leave this month's quota whole", async () => {
    const u = user();
    for (let i = 0; i < 3; i++) await consume(u);
    await svc.repos.consumptions.model.updateMany({ user_id: u, source: 'quota' }, { $set: { period: '2000-01' } });
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(0);
    expect((await consume(u)).source).toBe('quota');
    expect((await client.getAccount({ userId: u })).monthlyUsed).toBe(1);
  });

  it('gives a Pro account 25 a month', async () => {
    const u = user();
    await svc.change(u, (a) => ({ state: { ...a, plan: 'Pro' }, outcome: 'test', changed: true }), 'test');
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => consume(u)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
    expect(await client.getAccount({ userId: u })).toMatchObject({ plan: 'Pro', monthlyLimit: 25, monthlyUsed: 25 });
  });

  it('rejects malformed ids with INVALID_ARGUMENT', async () => {
    await expect(client.consumeSignature({ userId: '', consumptionId: 'x' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    await expect(client.getAccount({ userId: 'a b' })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  it('publishes signet.billing.account.changed through the outbox when the plan changes', async () => {
    const u = user();
    await svc.change(u, (a) => ({ state: { ...a, plan: 'Pro' }, outcome: 'test', changed: true }), 'test');
    const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.accountChanged.subject] });
    const found = await (async () => {
      for (let i = 0; i < 30; i++) {
        const batch = await consumer.fetch({ max_messages: 500, expires: 1000 });
        for await (const m of batch) {
          const ev = eventsV1.AccountChanged.decode(m.data);
          if (ev.userId === u) return ev;
        }
      }
      return null;
    })();
    expect(found).toMatchObject({ userId: u, plan: 'Pro', signatureCredits: 0, pastDue: false });
    for (
      let i = 0;
      i < 50 && (await svc.repos.accounts.model.countDocuments({ user_id: u, 'outbox.0': { $exists: true } })) > 0;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await svc.repos.accounts.model.countDocuments({ user_id: u, 'outbox.0': { $exists: true } })).toBe(0);
  });

  it('the sweep lease is held by one replica at a time', async () => {
    const key = `t:lease:${randomUUID()}`;
    const a = createLease(redis, key, 'a', 2000);
    const b = createLease(redis, key, 'b', 2000);
    const got = await Promise.all([a.acquire(), b.acquire(), a.acquire(), b.acquire()]);
    expect(got.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(got[0] && got[1]).toBe(false);
    const holder = got[0] ? a : b;
    const other = got[0] ? b : a;
    expect(await other.acquire()).toBe(false);
    await holder.release();
    expect(await other.acquire()).toBe(true);
  });
});
