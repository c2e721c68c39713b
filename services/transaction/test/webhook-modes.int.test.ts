/**
 * Webhook endpoints' modes and places on the real store (FerretDB), issue 31: an endpoint stored
 * before modes existed is live (seen by live callers and sessions, never by test ones) and is given
 * a place among its owner's at start; the cap is exact when creates race; a place whose endpoint was
 * never written (a create stopped between its two writes) is freed after a minute; a failure streak
 * is started once and ended by a success.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '@signet/kit';
import { infra } from '../../../test/harness/services.js';
import { addressPolicy } from '../src/webhooks/domain/address-policy.js';
import { createSecretSeal } from '../src/webhooks/domain/secret-seal.js';
import { createWebhookRepository, type WebhookRepository } from '../src/webhooks/store/webhook.repository.js';
import { createEndpoint, deleteEndpoint, listEndpoints, type EndpointDeps } from '../src/webhooks/usecases/manage-endpoints.js';

describe('webhook endpoint modes and places', () => {
  let conn: Connection;
  let store: WebhookRepository;
  let deps: EndpointDeps;
  let now = new Date();

  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, `t_wh_modes_${randomBytes(3).toString('hex')}`);
    store = createWebhookRepository(conn);
    await store.init();
    deps = {
      store,
      policy: addressPolicy('127.0.0.0/8'),
      clock: () => now,
      seal: createSecretSeal(randomBytes(32).toString('hex')),
      maxEndpoints: 3,
    };
  }, 60_000);
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
  });

  const input = (ownerId: string, mode?: 'live' | 'test') => ({
    ownerId,
    ownerEmail: 'o@example.com',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: ['transaction.created'],
    description: '',
    ...(mode ? { mode } : {}),
  });

  it('an endpoint stored before modes is live, and gets a place at start (once)', async () => {
    const legacy = { _id: 'we_legacyAAAAAAAAAAA', owner_id: 'old', owner_email: '', url: 'http://127.0.0.1:9/x' };
    await conn.collection('webhook_endpoints').insertOne({
      ...legacy,
      event_types: ['transaction.created'],
      description: '',
      secret: 'v1.x.y.z',
      enabled: true,
      disabled_reason: '',
      created_at: now,
      updated_at: now,
    } as never);
    expect((await listEndpoints(deps, 'old', 'live')).map((e) => [e._id, e.mode])).toEqual([[legacy._id, 'live']]);
    expect(await listEndpoints(deps, 'old', 'test')).toEqual([]);
    expect(await listEndpoints(deps, 'old', 'any')).toHaveLength(1);
    expect((await store.subscribers('old', 'transaction.created', now)).map((e) => e.mode ?? 'live')).toEqual(['live']);

    expect(await store.placeUnslotted(3, now)).toBe(1);
    expect(await store.placeUnslotted(3, now)).toBe(0);
    expect(await conn.collection('webhook_endpoints').findOne({ _id: legacy._id as never })).toMatchObject({
      slot: 0,
      mode: 'live',
    });
    // Its place counts: two more live ones fit under a cap of 3, not three.
    const made = await Promise.allSettled([0, 1, 2].map(() => createEndpoint(deps, input('old'))));
    expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('racing creates take exactly the cap per mode; a deletion frees a place; an orphaned place is freed after a minute', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createEndpoint(deps, input('racer'))));
    const ok = results.filter(
      (r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof createEndpoint>>> => r.status === 'fulfilled',
    );
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict', reason: 'ENDPOINT_LIMIT' });
    expect(
      (await Promise.allSettled([0, 1, 2, 3].map(() => createEndpoint(deps, input('racer', 'test'))))).filter(
        (r) => r.status === 'fulfilled',
      ),
    ).toHaveLength(3);

    await deleteEndpoint(deps, 'racer', ok[0]!.value._id, 'live');
    expect(
      (await Promise.allSettled([0, 1].map(() => createEndpoint(deps, input('racer'))))).filter((r) => r.status === 'fulfilled'),
    ).toHaveLength(1);

    // A place taken for an endpoint that was never written: held for a minute, then freed.
    const owner = 'crashed';
    for (let i = 0; i < 2; i++) await createEndpoint(deps, input(owner));
    expect(await store.claimSlot(owner, 'live', 'we_neverWrittenAAAA', 3, now)).toBe(2);
    await expect(createEndpoint(deps, input(owner))).rejects.toMatchObject({ reason: 'ENDPOINT_LIMIT' });
    now = new Date(now.getTime() + 61_000);
    await expect(createEndpoint(deps, input(owner))).resolves.toMatchObject({ mode: 'live' });
  });

  it('starts a failure streak once and ends it on success', async () => {
    const ep = await createEndpoint(deps, input('streak'));
    const t1 = new Date('2026-11-01T00:00:00Z');
    await store.setFailingSince(ep._id, t1);
    await store.setFailingSince(ep._id, new Date('2026-11-02T00:00:00Z'));
    expect((await store.endpointForDelivery(ep._id))!.failing_since).toEqual(t1);
    await store.setFailingSince(ep._id, null);
    expect((await store.endpointForDelivery(ep._id))!.failing_since).toBeNull();
  });
});
