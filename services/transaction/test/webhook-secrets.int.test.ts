/**
 * Webhook endpoint secrets at rest and rolled with an overlap (issue 18), on the real store
 * (FerretDB) and a real receiver on 127.0.0.1 that verifies with standardwebhooks' own verifier: the
 * stored endpoint holds no plaintext secret (and one stored before sealing is sealed at start);
 * during a roll's overlap each delivery carries both signatures, so the old and the new secret each
 * verify it; after the overlap only the new one does.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from 'mongoose';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, Metrics } from '@signet/kit';
import { infra } from '../../../test/harness/services.js';
import { webhookMetrics } from '../src/metrics.js';
import { addressPolicy } from '../src/webhooks/domain/address-policy.js';
import { createSecretSeal } from '../src/webhooks/domain/secret-seal.js';
import { newEndpointSecret } from '../src/webhooks/domain/webhook-event.js';
import { createWebhookRepository, type WebhookRepository } from '../src/webhooks/store/webhook.repository.js';
import { deliverNext, type DeliverDeps } from '../src/webhooks/usecases/deliver.js';
import { createEndpoint, getEndpoint, rollSecret, type EndpointDeps } from '../src/webhooks/usecases/manage-endpoints.js';

type Seen = { headers: IncomingHttpHeaders; body: string };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;

describe('webhook endpoint secrets', () => {
  let conn: Connection;
  let store: WebhookRepository;
  let server: Server;
  let port: number;
  const seen: Seen[] = [];
  const seal = createSecretSeal(randomBytes(32).toString('hex'));
  let now = new Date();
  const clock = () => now;
  const policy = addressPolicy('127.0.0.0/8');
  let endpoints: EndpointDeps;
  let delivery: DeliverDeps;

  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, `t_wh_secrets_${randomBytes(3).toString('hex')}`);
    store = createWebhookRepository(conn);
    await store.init();
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    endpoints = { store, policy, clock, seal };
    delivery = {
      store,
      sender: { policy },
      schedule: { baseMs: 1000, capMs: 1000, maxAttempts: 3, jitter: 0 },
      leaseMs: 5000,
      disableAfterMs: 86_400_000,
      clock,
      wm: webhookMetrics(new Metrics('webhook-secrets-test')),
      mailer: { send: async () => undefined } as never,
      logger: quiet,
      seal,
    };
  }, 60_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
  });

  const raw = (id: string) => conn.collection('webhook_endpoints').findOne({ _id: id as never });
  /** Records one pending delivery to the endpoint and lets the job attempt it; what the receiver got. */
  async function deliverOne(endpointId: string): Promise<Seen> {
    const before = seen.length;
    await store.recordDelivery({
      _id: `wd_${randomUUID()}`,
      endpoint_id: endpointId,
      owner_id: 'owner-1',
      webhook_id: `msg_${randomUUID()}`,
      event_type: 'transaction.created',
      transaction_id: 1,
      payload: JSON.stringify({ type: 'transaction.created', timestamp: now.toISOString(), data: { id: 1 } }),
      status: 'pending',
      round_attempts: 0,
      next_attempt_at: now,
      lease: null,
      lease_until: null,
      attempts: [],
      created_at: now,
    });
    expect(await deliverNext(delivery)).toBe(true);
    expect(seen).toHaveLength(before + 1);
    return seen[before]!;
  }
  const verifies = (secret: string, s: Seen) => {
    try {
      new Webhook(secret).verify(s.body, {
        'webhook-id': String(s.headers['webhook-id']),
        'webhook-timestamp': String(s.headers['webhook-timestamp']),
        'webhook-signature': String(s.headers['webhook-signature']),
      });
      return true;
    } catch {
      return false;
    }
  };

  it('stores no plaintext secret; one stored before sealing is sealed at start and still signs', async () => {
    const created = await createEndpoint(endpoints, {
      ownerId: 'owner-1',
      ownerEmail: 'owner@example.com',
      url: `http://127.0.0.1:${port}/hook`,
      eventTypes: ['transaction.created'],
      description: '',
    });
    const doc = await raw(created._id);
    expect(created.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(doc)).not.toContain(created.secret!.slice(6));
    expect(doc!.secret).toMatch(/^v1\./);
    expect(verifies(created.secret!, await deliverOne(created._id))).toBe(true);

    const legacy = newEndpointSecret();
    await conn.collection('webhook_endpoints').insertOne({
      ...doc,
      _id: 'we_legacyLEGACYlegac' as never,
      secret: legacy,
    });
    expect(await store.sealPlaintextSecrets(seal.seal)).toBe(1);
    expect(await store.sealPlaintextSecrets(seal.seal)).toBe(0);
    expect(JSON.stringify(await raw('we_legacyLEGACYlegac'))).not.toContain(legacy.slice(6));
    expect(verifies(legacy, await deliverOne('we_legacyLEGACYlegac'))).toBe(true);
  });

  it('rolled with an overlap: both secrets verify every delivery until it ends, then only the new one', async () => {
    const created = await createEndpoint(endpoints, {
      ownerId: 'owner-1',
      ownerEmail: 'owner@example.com',
      url: `http://127.0.0.1:${port}/hook`,
      eventTypes: ['transaction.created'],
      description: '',
    });
    const old = created.secret!;
    now = new Date();
    const rolled = await rollSecret(endpoints, 'owner-1', created._id, 60);
    const fresh = rolled.secret!;
    expect(fresh).not.toBe(old);
    expect(rolled.previous_secret_until).toEqual(new Date(now.getTime() + 60_000));
    expect((await getEndpoint(endpoints, 'owner-1', created._id)).previous_secret_until).toEqual(rolled.previous_secret_until);
    const doc = JSON.stringify(await raw(created._id));
    expect(doc).not.toContain(old.slice(6));
    expect(doc).not.toContain(fresh.slice(6));

    const during = await deliverOne(created._id);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(old, during)).toBe(true);
    expect(verifies(fresh, during)).toBe(true);

    now = new Date(now.getTime() + 61_000);
    const after = await deliverOne(created._id);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(old, after)).toBe(false);
  });

  it('a roll with overlap 0 stops the old secret at once; another owner or a bad overlap changes nothing', async () => {
    now = new Date();
    const created = await createEndpoint(endpoints, {
      ownerId: 'owner-1',
      ownerEmail: 'owner@example.com',
      url: `http://127.0.0.1:${port}/hook`,
      eventTypes: ['transaction.created'],
      description: '',
    });
    const before = await raw(created._id);
    await expect(rollSecret(endpoints, 'owner-2', created._id, 0)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(rollSecret(endpoints, 'owner-1', created._id, 604_801)).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(rollSecret(endpoints, 'owner-1', created._id, 1.5)).rejects.toMatchObject({ kind: 'invalid_argument' });
    expect(await raw(created._id)).toEqual(before);
    const rolled = await rollSecret(endpoints, 'owner-1', created._id, 0);
    expect(rolled.previous_secret_until).toBeNull();
    const s = await deliverOne(created._id);
    expect(verifies(rolled.secret!, s)).toBe(true);
    expect(verifies(created.secret!, s)).toBe(false);
  });
});
