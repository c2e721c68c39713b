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

type Pending = {
  _id: string;
  endpoint_id: string;
  owner_id: string;
  webhook_id: string;
  payload: string;
  round_attempts: number;
};

/** A store of pending deliveries (`owner/endpoint` each), honouring claims' skips and leases, counting the claims. */
function fakeStore(due: string[]) {
  let n = 0;
  const make = (key: string) => {
    const [owner, endpoint] = key.split('/') as [string, string];
    const i = n++;
    return {
      _id: `wd_${i}`,
      endpoint_id: endpoint,
      owner_id: owner,
      webhook_id: `msg_${i}`,
      payload: '{}',
      round_attempts: 0,
      leased: false,
    };
  };
  const pending: (Pending & { leased: boolean })[] = due.map(make);
  const claims = { count: 0 };
  const endpoint = (id: string) =>
    ({ _id: id, url: `https://example.com/${id}`, enabled: true, secret: seal.seal('whsec_c2VjcmV0', id) }) as EndpointRecord;
  const store = {
    async inFlight() {
      return pending.filter((p) => p.leased);
    },
    async claimDue(_lease: string, _now: Date, _until: Date, skip: { endpoints?: string[]; owners?: string[] } = {}) {
      claims.count++;
      const d = pending.find((p) => !p.leased && !skip.endpoints?.includes(p.endpoint_id) && !skip.owners?.includes(p.owner_id));
      if (d) d.leased = true;
      return (d as unknown as DeliveryRecord) ?? null;
    },
    async endpointForDelivery(id: string) {
      return endpoint(id);
    },
    async completeAttempt(id: string) {
      const i = pending.findIndex((p) => p._id === id);
      if (i >= 0) pending.splice(i, 1);
      return true;
    },
    async setFailingSince() {},
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
  return { store, claims, add: (key: string) => pending.push(make(key)) };
}

function job(store: WebhookRepository, send: (req: SendRequest) => Promise<void>) {
  return createDeliveryJob({
    store,
    sender: { policy: {} as never },
    schedule: { baseMs: 1000, capMs: 1000, maxAttempts: 3, jitter: 0 },
    leaseMs: 60_000,
    disableAfterMs: 86_400_000,
    clock: () => new Date(),
    seal,
    wm,
    mailer: { send: async () => undefined },
    logger,
    intervalMs: 3600_000,
    concurrency: 8,
    endpointConcurrency: 2,
    ownerConcurrency: 3,
    logRetentionMs: 86_400_000,
    send: async (req) => {
      await send(req);
      return { result: 'success', status: 200, latencyMs: 1, snippet: '' };
    },
  });
}

const settle = async (until: () => boolean) => {
  for (let i = 0; i < 200 && !until(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('the webhook delivery job', () => {
  it('makes one claim per fill when nothing is due, however many attempts it may run', async () => {
    const { store, claims } = fakeStore([]);
    const j = job(store, async () => undefined);
    // The fill the job starts with, then two more once it has ended: one claim each.
    await settle(() => claims.count >= 1);
    await new Promise((r) => setTimeout(r, 10));
    await j.run();
    await j.run();
    await j.stop();
    expect(claims.count).toBe(3);
  });

  it("holds one endpoint to its share and one owner to theirs; another owner's delivery goes at once beside them", async () => {
    // Owner A: 3 deliveries to we_a1, 3 to we_a2 (shares: 2 per endpoint, 3 per owner); owner B one.
    const { store, add } = fakeStore(['A/we_a1', 'A/we_a1', 'A/we_a1', 'A/we_a2', 'A/we_a2', 'A/we_a2']);
    const sending: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const j = job(store, async (req) => {
      sending.push(new URL(req.url).pathname.slice(1));
      if (!req.url.endsWith('we_b')) await held;
    });
    await j.run();
    await settle(() => sending.length >= 3);
    await new Promise((r) => setTimeout(r, 20));
    expect(sending.sort()).toEqual(['we_a1', 'we_a1', 'we_a2']);
    expect(j.inFlight()).toBe(3);
    // B's delivery arrives while all of A's attempts hang: it is sent at once, A still holds three.
    add('B/we_b');
    j.kick();
    await settle(() => sending.includes('we_b'));
    expect(sending).toContain('we_b');
    expect(sending.filter((x) => x.startsWith('we_a'))).toHaveLength(3);
    release();
    await j.drain();
    expect(sending.filter((s) => s.startsWith('we_a'))).toHaveLength(6);
    await j.stop();
  });
});
