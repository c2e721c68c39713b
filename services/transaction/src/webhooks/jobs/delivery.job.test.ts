import { describe, expect, it } from 'vitest';
import type { Logger } from '@signet/kit';
import type { WebhookMetrics } from '../../metrics.js';
import { createSecretSeal } from '../domain/secret-seal.js';
import type { SendRequest } from '../delivery/http-sender.js';
import type { DeliveryRecord, EndpointRecord, WebhookRepository } from '../store/webhook.repository.js';
import { createDeliveryJob } from './delivery.job.js';

const seal = createSecretSeal('11'.repeat(32));
const metric = { inc: () => undefined, set: () => undefined, observe: () => undefined };
const wm = new Proxy({}, { get: () => metric }) as unknown as WebhookMetrics;
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

/** A store holding `due` pending deliveries of one endpoint, counting the claims made. */
function fakeStore(due: number) {
  const pending = Array.from({ length: due }, (_, i) => ({
    _id: `wd_${i}`,
    endpoint_id: 'we_1',
    webhook_id: `msg_${i}`,
    payload: '{}',
    round_attempts: 0,
  }));
  const claims = { count: 0 };
  const endpoint = {
    _id: 'we_1',
    url: 'https://example.com/hook',
    enabled: true,
    secret: seal.seal('whsec_c2VjcmV0', 'we_1'),
  } as EndpointRecord;
  const store = {
    async claimDue() {
      claims.count++;
      return (pending.shift() as unknown as DeliveryRecord) ?? null;
    },
    async endpointForDelivery() {
      return endpoint;
    },
    async completeAttempt() {
      return true;
    },
    async countPending() {
      return pending.length;
    },
    async countDisabled() {
      return 0;
    },
    async pruneEnded() {
      return 0;
    },
  } as unknown as WebhookRepository;
  return { store, claims };
}

function job(store: WebhookRepository, send: (req: SendRequest) => Promise<void>) {
  return createDeliveryJob({
    store,
    sender: { policy: {} as never },
    schedule: { baseMs: 1000, capMs: 1000, maxAttempts: 3, jitter: 0 },
    leaseMs: 60_000,
    clock: () => new Date(),
    seal,
    wm,
    mailer: { send: async () => undefined },
    logger,
    intervalMs: 3600_000,
    concurrency: 8,
    logRetentionMs: 86_400_000,
    send: async (req) => {
      await send(req);
      return { result: 'success', status: 200, latencyMs: 1, snippet: '' };
    },
  });
}

describe('the webhook delivery job', () => {
  it('makes one claim per pass when nothing is due, not one per worker', async () => {
    const { store, claims } = fakeStore(0);
    const j = job(store, async () => undefined);
    // The pass the job starts with, then two more once it has ended: one claim each (eight before).
    while (claims.count < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 5));
    await j.run();
    await j.run();
    await j.stop();
    expect(claims.count).toBe(3);
  });

  it('starts the other workers once a delivery is claimed: attempts still run side by side', async () => {
    const { store } = fakeStore(3);
    const sending: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const j = job(store, async (req) => {
      sending.push(req.webhookId);
      await held;
    });
    const pass = j.run();
    // All three attempts are in flight before any ends (one slow endpoint holds no one up).
    for (let i = 0; i < 50 && sending.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sending.sort()).toEqual(['msg_0', 'msg_1', 'msg_2']);
    release();
    await pass;
    await j.stop();
  });
});
