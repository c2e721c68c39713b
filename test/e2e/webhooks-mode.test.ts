import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send, type Reply } from '../support/http.js';
import { answering, webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 31 items 1 and 7 (the endpoint cap), through the gateway: a webhook endpoint's mode is part
 * of its ownership. Every webhook route is tried by a live key, a test key, the dashboard session
 * and another account against a live and a test endpoint; a live transaction's events reach only
 * live endpoints and a test one's only test endpoints; 25 parallel creates give exactly the cap.
 */

const suffix = randomBytes(3).toString('hex');
const buckets = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };
type Who = { apiKey?: string; token?: string };

describe('webhook endpoints: mode is part of ownership', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  let live: Who;
  let test: Who;
  let session: Who;
  let stranger: Who;
  const receivers: WebhookReceiver[] = [];

  const call = (who: Who, method: string, path: string, json?: unknown): Promise<Reply> =>
    send(stack.gatewayUrl, method, path, { ...who, json });

  async function newTestKey(a: Account): Promise<string> {
    const csrf = (await call({ token: a.token }, 'GET', '/api/admin/csrf')).body.csrf as string;
    const r = await call({ token: a.token }, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      name: 'sandbox',
      mode: 'test',
    });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  }
  const createTx = (apiKey: string) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey,
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${randomBytes(4).toString('hex')}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
      ],
    });
  const newReceiver = async () => {
    const r = await webhookReceiver(answering(204));
    receivers.push(r);
    return r;
  };
  const newEndpoint = async (who: Who, url: string, mode?: 'live' | 'test') => {
    const r = await call(who, 'POST', '/api/webhook-endpoints', {
      url,
      event_types: ['transaction.created'],
      ...(mode ? { mode } : {}),
    });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: string; mode: string; secret: string };
  };
  const ids = (r: Reply) => (r.body as { id: string }[]).map((e) => e.id).sort();

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: {
        ...buckets,
        REFERENCE_FACE_CHECK: 'off',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_POLL_MS: '100',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
    other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other' });
    live = { apiKey: acct.apiKey };
    test = { apiKey: await newTestKey(acct) };
    session = { token: acct.token };
    stranger = { apiKey: other.apiKey };
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.stop();
  });

  it('a test key sees and changes only test endpoints, a live key only live ones, the session both, another account none', async () => {
    const liveRx = await newReceiver();
    const testRx = await newReceiver();
    const L = await newEndpoint(live, liveRx.url);
    const T = await newEndpoint(test, testRx.url);
    expect([L.mode, T.mode]).toEqual(['live', 'test']);
    // A key cannot make an endpoint of the other mode; the session chooses (default live).
    const wrong = await call(test, 'POST', '/api/webhook-endpoints', {
      url: testRx.url,
      event_types: ['transaction.created'],
      mode: 'live',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/^mode: a test API key creates only test endpoints/);
    expect(
      (
        await call(live, 'POST', '/api/webhook-endpoints', {
          url: liveRx.url,
          event_types: ['transaction.created'],
          mode: 'test',
        })
      ).status,
    ).toBe(400);
    const S = await newEndpoint(session, liveRx.url);
    const ST = await newEndpoint(session, testRx.url, 'test');
    expect([S.mode, ST.mode]).toEqual(['live', 'test']);

    // Lists.
    expect(ids(await call(live, 'GET', '/api/webhook-endpoints'))).toEqual([L.id, S.id].sort());
    expect(ids(await call(test, 'GET', '/api/webhook-endpoints'))).toEqual([T.id, ST.id].sort());
    expect(ids(await call(test, 'GET', '/api/webhook-endpoints?mode=live'))).toEqual([]);
    const all = await call(session, 'GET', '/api/webhook-endpoints');
    expect(ids(all)).toEqual([L.id, T.id, S.id, ST.id].sort());
    expect(Object.fromEntries((all.body as { id: string; mode: string }[]).map((e) => [e.id, e.mode]))).toMatchObject({
      [L.id]: 'live',
      [T.id]: 'test',
    });
    expect(ids(await call(session, 'GET', '/api/webhook-endpoints?mode=test'))).toEqual([T.id, ST.id].sort());
    expect(await call(stranger, 'GET', '/api/webhook-endpoints')).toMatchObject({ status: 200, body: [] });

    // Events: a live transaction's reach the live endpoints only, a test one's the test endpoints only.
    const liveTx = await createTx(acct.apiKey);
    const testTx = await createTx(test.apiKey!);
    expect([liveTx.status, testTx.status]).toEqual([201, 201]);
    const txOf = (r: WebhookReceiver) => r.got.map((g) => JSON.parse(g.body).data.transaction as { id: number; test: boolean });
    // liveRx serves L and S (live), testRx serves T and ST (test): two deliveries each.
    await eventually(async () => liveRx.got.length >= 2 && testRx.got.length >= 2, 30_000);
    const logOf = async (id: string) =>
      eventually(async () => {
        const r = await call(session, 'GET', `/api/webhook-endpoints/${id}/deliveries`);
        return r.status === 200 && r.body.length && r.body.every((d: { status: string }) => d.status === 'delivered')
          ? r
          : undefined;
      });
    for (const id of [L.id, S.id])
      expect((await logOf(id)).body.map((d: { transaction_id: number }) => d.transaction_id)).toEqual([liveTx.body.id]);
    for (const id of [T.id, ST.id])
      expect((await logOf(id)).body.map((d: { transaction_id: number }) => d.transaction_id)).toEqual([testTx.body.id]);
    expect(txOf(liveRx)).toEqual([
      expect.objectContaining({ id: liveTx.body.id, test: false }),
      expect.objectContaining({ id: liveTx.body.id, test: false }),
    ]);
    expect(txOf(testRx)).toEqual([
      expect.objectContaining({ id: testTx.body.id, test: true }),
      expect.objectContaining({ id: testTx.body.id, test: true }),
    ]);
    expect(liveRx.got.map((g) => g.body).join('')).not.toContain(testTx.body.reference);
    expect(testRx.got.map((g) => g.body).join('')).not.toContain(liveTx.body.reference);
    const liveDelivery = (await logOf(L.id)).body[0].id as string;
    const testDelivery = (await logOf(T.id)).body[0].id as string;

    // Every route of one endpoint, for each caller: allowed ones answer, the others 404 and change nothing.
    const routes = (ep: string, delivery: string) =>
      [
        ['GET', `/api/webhook-endpoints/${ep}`, undefined, 200],
        ['PATCH', `/api/webhook-endpoints/${ep}`, { description: 'changed' }, 200],
        ['POST', `/api/webhook-endpoints/${ep}/roll-secret?overlap_seconds=0`, undefined, 200],
        ['GET', `/api/webhook-endpoints/${ep}/deliveries`, undefined, 200],
        ['POST', `/api/webhook-endpoints/${ep}/deliveries/${delivery}/redeliver`, undefined, 202],
      ] as const;
    const matrix: [string, Who, string, string, boolean][] = [
      ['live key → live', live, L.id, liveDelivery, true],
      ['live key → test', live, T.id, testDelivery, false],
      ['test key → test', test, T.id, testDelivery, true],
      ['test key → live', test, L.id, liveDelivery, false],
      ['session → live', session, L.id, liveDelivery, true],
      ['session → test', session, T.id, testDelivery, true],
      ['other account → live', stranger, L.id, liveDelivery, false],
      ['other account → test', stranger, T.id, testDelivery, false],
    ];
    for (const [label, who, ep, delivery, allowed] of matrix) {
      const before = await call(session, 'GET', `/api/webhook-endpoints/${ep}`);
      const receivedBefore = liveRx.got.length + testRx.got.length;
      for (const [method, path, body, ok] of routes(ep, delivery)) {
        const r = await call(who, method, path, body);
        expect(r.status, `${label}: ${method} ${path} ${r.text}`).toBe(allowed ? ok : 404);
        if (!allowed) expect(r.body.detail).toMatch(/no such webhook/);
        if (!allowed) expect(r.text).not.toContain('whsec_');
      }
      // A delivery id is found only under its own endpoint.
      const crossed = await call(
        who,
        'POST',
        `/api/webhook-endpoints/${ep}/deliveries/${ep === L.id ? testDelivery : liveDelivery}/redeliver`,
      );
      expect(crossed.status, `${label}: another endpoint's delivery`).toBe(404);
      if (allowed) {
        // Its redelivery arrives before the next caller's turn, so that one's count is its own.
        await eventually(async () => liveRx.got.length + testRx.got.length > receivedBefore);
      } else {
        const after = await call(session, 'GET', `/api/webhook-endpoints/${ep}`);
        expect(after.body, label).toEqual(before.body);
        await new Promise((r) => setTimeout(r, 300));
        expect(liveRx.got.length + testRx.got.length, `${label}: nothing redelivered`).toBe(receivedBefore);
      }
    }

    // Delete, last: refused across modes and accounts (the endpoint stays), allowed in its own.
    for (const [who, ep] of [
      [test, L.id],
      [live, T.id],
      [stranger, L.id],
      [stranger, T.id],
    ] as const) {
      expect((await call(who, 'DELETE', `/api/webhook-endpoints/${ep}`)).status).toBe(404);
      expect((await call(session, 'GET', `/api/webhook-endpoints/${ep}`)).status).toBe(200);
    }
    expect((await call(live, 'DELETE', `/api/webhook-endpoints/${L.id}`)).status).toBe(204);
    expect((await call(test, 'DELETE', `/api/webhook-endpoints/${T.id}`)).status).toBe(204);
    expect((await call(session, 'DELETE', `/api/webhook-endpoints/${S.id}`)).status).toBe(204);
    expect((await call(session, 'DELETE', `/api/webhook-endpoints/${ST.id}`)).status).toBe(204);
    expect(await call(session, 'GET', '/api/webhook-endpoints')).toMatchObject({ status: 200, body: [] });
  });

  it('25 parallel creates give exactly the cap of 20 per mode, the rest 409; a deletion frees one place', async () => {
    const owner = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'cap' });
    const rx = await newReceiver();
    const burst = (who: Who) =>
      Promise.all(
        Array.from({ length: 25 }, () =>
          call(who, 'POST', '/api/webhook-endpoints', { url: rx.url, event_types: ['transaction.created'] }),
        ),
      );
    const statuses = (rs: Reply[]) => rs.map((r) => r.status).sort();
    const liveBurst = await burst({ apiKey: owner.apiKey });
    expect(statuses(liveBurst)).toEqual([...Array(20).fill(201), ...Array(5).fill(409)]);
    for (const r of liveBurst.filter((x) => x.status === 409)) expect(r.body.detail).toMatch(/at most 20 live webhook endpoints/);
    // The test mode has places of its own: a test key's endpoints do not eat the live ones'.
    const testKey = await newTestKey(owner);
    expect(statuses(await burst({ apiKey: testKey }))).toEqual([...Array(20).fill(201), ...Array(5).fill(409)]);
    const mine = await call({ token: owner.token }, 'GET', '/api/webhook-endpoints');
    expect(mine.body).toHaveLength(40);

    const one = (liveBurst.find((r) => r.status === 201)!.body as { id: string }).id;
    expect((await call({ apiKey: owner.apiKey }, 'DELETE', `/api/webhook-endpoints/${one}`)).status).toBe(204);
    const again = await burst({ apiKey: owner.apiKey });
    expect(statuses(again)).toEqual([201, ...Array(24).fill(409)]);
    expect((await call({ apiKey: owner.apiKey }, 'GET', '/api/webhook-endpoints')).body).toHaveLength(20);
  });
});
