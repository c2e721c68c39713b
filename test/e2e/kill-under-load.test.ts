/**
 * Replicas killed under load, nothing lost (issue 35). Two replicas of every service run as their
 * own processes; a steady, bounded load creates test transactions (through either gateway, retried
 * on the other with the same Idempotency-Key when one is down), completes them (test mode: a
 * certificate in the test log), and two live signers pass a real ceremony with the corpus capture;
 * meanwhile one replica of each service in turn is killed with SIGKILL and started again. Then it
 * counts: every accepted creation exists exactly once, every verified transaction has exactly one
 * certificate, each transaction's events reached the webhook receiver once each (one webhook-id per
 * event, none missing), and the live creations used the quota exactly once. It prints the p99 of
 * creations during the kills.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { startProcessStack } from '../harness/processes.js';
import { eventually, infra, type ServiceName } from '../harness/services.js';
import { send, type Reply } from '../support/http.js';
import { answering, webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { makePng, tinyPdf } from '../fixtures/ceremony-media.js';
import { makeGenuineCapture } from '../../services/biometrics/test/corpus/make-corpus.js';
import { submitPredictedCapture } from '../support/predicted-capture.js';

type Stack = Awaited<ReturnType<typeof startProcessStack>>;

const ORDER: ServiceName[] = ['transaction', 'ledger', 'identity', 'billing', 'ceremony', 'biometrics', 'gateway'];
const SEED = 'kill-under-load-seed-v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? 0;

describe('replicas killed under load: nothing lost, nothing twice', () => {
  let stack: Stack;
  let live: Account;
  let testKey: string;
  let hooks: WebhookReceiver;
  let secret: string;
  let dir: string;
  let png: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-kill-'));
    png = makePng(dir);
    stack = await startProcessStack({
      replicas: 2,
      env: {
        CHALLENGE_TEST_SEED: SEED,
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_RETRY_BASE_MS: '1000',
        WEBHOOK_RETRY_CAP_MS: '2000',
        WEBHOOK_LEASE_MS: '3000',
        WEBHOOK_POLL_MS: '200',
      },
    });
    const gw = stack.gatewayUrls[0]!;
    live = await createAccount(gw, infra().MAILPIT_URL, { orgName: 'Kill Test Ltd', tag: 'kill' });
    const csrf = (await send(gw, 'GET', '/api/admin/csrf', { headers: { authorization: `Bearer ${live.token}` } })).body
      .csrf as string;
    const key = await send(gw, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      headers: { authorization: `Bearer ${live.token}` },
      json: { name: 'load', mode: 'test' },
    });
    testKey = key.body.key as string;
    hooks = await webhookReceiver(answering(204));
    const ep = await send(gw, 'POST', '/api/webhook-endpoints', {
      headers: { 'x-api-key': testKey },
      json: { url: hooks.url, event_types: ['transaction.created', 'transaction.completed'] },
    });
    expect(ep.status, ep.text).toBe(201);
    secret = ep.body.secret as string;
  }, 600_000);
  afterAll(async () => {
    await stack?.stop();
    await hooks?.close();
  });

  /** Sends to gateway `k`, and on a connection failure to the other, with the same request. */
  async function call(
    path: string,
    init: Parameters<typeof send>[3],
    k: number,
    method = init?.parts || init?.json ? 'POST' : 'GET',
  ): Promise<Reply> {
    for (let attempt = 0; ; attempt++) {
      const base = stack.gatewayUrls[(k + attempt) % 2]!;
      try {
        const r = await send(base, method, path, init);
        // A gateway whose backend replica just died may answer 503 once; try the other.
        if (r.status !== 503 || attempt >= 10) return r;
      } catch (err) {
        if (attempt >= 10) throw err;
      }
      await sleep(300);
    }
  }

  it('keeps every creation, certificate and event exactly once while each service loses a replica', async () => {
    const accepted = new Map<string, number>(); // idempotency key → transaction id
    const latencies: number[] = [];
    const refused: string[] = [];
    let running = true;
    let n = 0;

    // The load: 2 creation workers, each creating and completing test transactions back to back.
    const worker = (w: number) => load(w).catch((err: unknown) => void refused.push(`worker ${w}: ${String(err)}`));
    const load = async (w: number) => {
      while (running) {
        const idem = randomUUID();
        const k = n++ % 2;
        const t = Date.now();
        const r = await call(
          '/api/transactions',
          {
            headers: { 'x-api-key': testKey, 'idempotency-key': idem },
            parts: [
              { name: 'signer_name', value: `Load ${w}` },
              { name: 'signer_email', value: `load-${idem.slice(0, 8)}@example.com` },
              { name: 'document', filename: 'c.pdf', contentType: 'application/pdf', data: tinyPdf(idem) },
              { name: 'reference', filename: 'f.png', contentType: 'image/png', data: png },
            ],
          },
          k,
        );
        latencies.push(Date.now() - t);
        if (r.status !== 201 && r.status !== 200) {
          refused.push(`${r.status} ${r.text.slice(0, 200)}`);
          continue;
        }
        accepted.set(idem, r.body.id as number);
        const done = await call(
          `/api/transactions/${r.body.id}/test/complete`,
          { headers: { 'x-api-key': testKey }, json: { outcome: 'verified' } },
          k,
        );
        // 409: an earlier attempt completed it and its answer was lost with a killed replica; the
        // certificate and event counts below show it was completed exactly once.
        if (done.status !== 200 && done.status !== 409) refused.push(`complete ${done.status} ${done.text.slice(0, 200)}`);
        await sleep(200);
      }
    };
    const workers = [worker(0), worker(1)];

    // Two live ceremonies with the corpus capture, started before biometrics loses a replica.
    const ceremonies = [0, 1].map(async (c) => {
      const { reference } = await makeGenuineCapture(join(dir, `ref-${c}`), null);
      const pdf = tinyPdf(`kill ${c} ${randomUUID()}`);
      const created = await call(
        '/api/transactions',
        {
          headers: { 'x-api-key': live.apiKey, 'idempotency-key': `live-${c}-${stack.run}` },
          parts: [
            { name: 'signer_name', value: 'Ada Lovelace' },
            { name: 'signer_email', value: `ada-${c}-${stack.run}@example.com` },
            { name: 'required_assurance', value: 'recorded' },
            { name: 'document', filename: 'a.pdf', contentType: 'application/pdf', data: pdf },
            { name: 'reference', filename: 'r.jpg', contentType: 'image/jpeg', data: readFileSync(reference) },
          ],
        },
        c,
      );
      expect(created.status, created.text).toBe(201);
      const { id, token } = created.body as { id: number; token: string };
      const ip = { 'x-forwarded-for': `10.88.0.${c + 1}` };
      expect(
        (await call(`/api/sign/${token}/consent`, { headers: ip, json: { consent_text_version: 'consent-v1' } }, c)).status,
      ).toBeLessThan(300);
      const cap = await submitPredictedCapture({
        gateway: (method, path, init) => call(path, init, c, method),
        id,
        token,
        seed: SEED,
        dir: join(dir, `cap-${c}`),
        headers: ip,
      });
      expect(cap.status, cap.text).toBeLessThan(300);
      return id;
    });

    // Awaited after the kills; marked handled now, so a failure before then is reported there, not as a crash.
    for (const p of ceremonies) p.catch(() => undefined);

    // The kills: one replica of each service in turn, SIGKILL, a few seconds down, then back.
    const killsStarted = Date.now();
    let duringKills: number[] = [];
    try {
      for (const name of ORDER) {
        await sleep(3_000);
        await stack.kill(name, 1);
        await sleep(3_000);
        await stack.restart(name, 1);
      }
      duringKills = [...latencies];
      await sleep(3_000);
    } finally {
      running = false;
      await Promise.allSettled([...workers, ...ceremonies]);
    }
    const killsMs = Date.now() - killsStarted;
    const liveIds = await Promise.all(ceremonies);

    console.log(
      `[kill-under-load] ${accepted.size} creations accepted, ${refused.length} refused, kills took ${Math.round(killsMs / 1000)} s; ` +
        `creation p99 during kills ${p99(duringKills)} ms (p50 ${[...duringKills].sort((a, b) => a - b)[duringKills.length >> 1]} ms, n=${duringKills.length})`,
    );
    expect(refused, refused.join('\n')).toEqual([]);
    expect(accepted.size).toBeGreaterThan(10);

    // Every accepted creation exists once: one transaction per idempotency key, all distinct.
    const ids = [...accepted.values()];
    expect(new Set(ids).size).toBe(ids.length);
    const mongo = await MongoClient.connect(infra().MONGO_URL);
    try {
      const txs = mongo.db(stack.dbs.transaction).collection('transactions');
      // Every test creation of the load is there, and nothing else was created for the test key's owner.
      expect(await txs.countDocuments({ test: true })).toBe(ids.length);
      // The live signers: verified, one certificate each; test ones completed, one certificate each.
      for (const id of liveIds)
        await eventually(async () => {
          const r = await send(stack.gatewayUrls[0]!, 'GET', `/api/transactions/${id}`, {
            headers: { 'x-api-key': live.apiKey },
          });
          if (r.body.status === 'ledger_issued' || r.body.status === 'completed') return true;
          throw new Error(`live signer ${id}: ${r.status} ${String(r.body.status)}`); // said if the wait runs out
        }, 300_000);
      // Live certificates in the ledger's database, test ones in its test log's (`<db>_test`).
      const certs = mongo.db(stack.dbs.ledger).collection('certificates');
      const testCerts = mongo.db(`${stack.dbs.ledger}_test`).collection('certificates');
      await eventually(async () => {
        const have = new Set(
          (await testCerts.find({}, { projection: { transaction_id: 1 } }).toArray()).map((c) => c.transaction_id),
        );
        const missing = ids.filter((id) => !have.has(id));
        if (!missing.length) return true;
        const states = await txs.find({ _id: { $in: missing.slice(0, 10) } } as object).toArray();
        throw new Error(
          `${missing.length} without a test certificate, e.g. ${JSON.stringify(states.map((t) => [t._id, t.status]))}`,
        );
      }, 300_000);
      for (const id of ids) expect(await testCerts.countDocuments({ transaction_id: id }), `certificates of ${id}`).toBe(1);
      for (const id of liveIds) expect(await certs.countDocuments({ transaction_id: id }), `certificates of ${id}`).toBe(1);
      expect(await testCerts.countDocuments({})).toBe(ids.length);
      expect(await certs.countDocuments({})).toBe(liveIds.length);

      // The live creations used the quota exactly once each, however often their events were redelivered.
      const used = await mongo.db(stack.dbs.billing).collection('consumptions').countDocuments({ user_id: live.userId });
      expect(used).toBe(liveIds.length);
    } finally {
      await mongo.close();
    }

    // Each test transaction's events reached the receiver: once per event (one webhook-id), none lost.
    const wh = new Webhook(secret);
    const events = await eventually(async () => {
      const byKind = new Map<string, Set<string>>();
      for (const g of hooks.got) {
        const headers = {
          'webhook-id': String(g.headers['webhook-id']),
          'webhook-timestamp': String(g.headers['webhook-timestamp']),
          'webhook-signature': String(g.headers['webhook-signature']),
        };
        const p = wh.verify(g.body, headers) as { type: string; data: { transaction: { id: number } } };
        const kind = `${p.type}:${p.data.transaction.id}`;
        byKind.set(kind, (byKind.get(kind) ?? new Set()).add(headers['webhook-id']));
      }
      const missing = ids.flatMap((id) =>
        ['created', 'completed'].filter((k) => !byKind.has(`transaction.${k}:${id}`)).map((k) => `${k}:${id}`),
      );
      if (!missing.length) return byKind;
      throw new Error(`${missing.length} events not delivered, e.g. ${missing.slice(0, 10).join(', ')}`);
    }, 300_000);
    for (const [kind, webhookIds] of events) expect(webhookIds.size, `${kind} announced as distinct events`).toBe(1);
  }, 1_200_000);
});
