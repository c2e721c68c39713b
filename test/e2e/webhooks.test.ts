import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { mailsTo } from '../support/identity-helpers.js';

/**
 * Issue 18 items 6-7: outgoing webhooks through the gateway's public API, to real HTTP receivers
 * started here. Every delivery is checked with standardwebhooks' own Webhook.verify.
 */

type Received = { at: number; headers: IncomingHttpHeaders; body: string };
type Behaviour = (n: number, res: ServerResponse) => void;

/** A receiver on 127.0.0.1: records every request, answers as `behaviour` says for the n-th (1-based). */
async function receiver(behaviour: Behaviour) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      behaviour(got.length, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/signet`,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
const answer =
  (status: number, body = '') =>
  (_n: number, res: ServerResponse) =>
    res.writeHead(status).end(body);

/** Verifies a request as a customer would, with the endpoint's secret; returns the parsed payload. */
function verified(secret: string, r: Received): { type: string; timestamp: string; data: any } {
  const headers = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(r.body, headers) as { type: string; timestamp: string; data: any };
}

const suffix = randomBytes(3).toString('hex');
const buckets = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };

function createTx(gatewayUrl: string, acct: Account, extra: { name: string; value: string }[] = []) {
  return send(gatewayUrl, 'POST', '/api/transactions', {
    apiKey: acct.apiKey,
    parts: [
      ...extra,
      { name: 'signer_name', value: 'Ada Lovelace' },
      { name: 'signer_email', value: `ada-${randomBytes(4).toString('hex')}@example.com` },
      { name: 'document', data: tinyPdf(randomUUID()), filename: 'contract.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
    ],
  });
}

describe('outgoing webhooks (loopback allowed, as on the local stack)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  const receivers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: {
        ...buckets,
        REFERENCE_FACE_CHECK: 'off',
        TIMER_INTERVAL_MS: '250',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_RETRY_BASE_MS: '1000',
        WEBHOOK_RETRY_CAP_MS: '4000',
        WEBHOOK_MAX_ATTEMPTS: '4',
        // Failing every attempt for 5 s disables (the default is 5 days): the 4 attempts span about 7 s.
        WEBHOOK_DISABLE_AFTER_MS: '5000',
        WEBHOOK_LEASE_MS: '2000',
        WEBHOOK_POLL_MS: '100',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
    other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other' });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.stop();
  });

  const api = (a: Account, method: string, path: string, json?: unknown) =>
    send(stack.gatewayUrl, method, path, { apiKey: a.apiKey, json });
  const track = <R extends { close(): Promise<void> }>(r: R) => (receivers.push(r), r);

  it('manages endpoints: the secret shown once, list, get, update, roll, delete; another account gets 404; bad input 400 and nothing stored', async () => {
    const r = track(await receiver(answer(204)));
    const created = await api(acct, 'POST', '/api/webhook-endpoints', {
      url: r.url,
      event_types: ['transaction.created', 'transaction.cancelled'],
      description: 'CRM sync',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: r.url,
      event_types: ['transaction.created', 'transaction.cancelled'],
      enabled: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.body.id as string;

    const got = await api(acct, 'GET', `/api/webhook-endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.text).not.toContain(created.body.secret);
    const list = await api(acct, 'GET', '/api/webhook-endpoints');
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(list.text).not.toContain('whsec_');

    const updated = await api(acct, 'PATCH', `/api/webhook-endpoints/${id}`, {
      event_types: ['signer.verified'],
      description: 'x',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ event_types: ['signer.verified'], description: 'x', url: r.url });

    const rolled = await api(acct, 'POST', `/api/webhook-endpoints/${id}/roll-secret`);
    expect(rolled.status).toBe(200);
    expect(rolled.body.secret).toMatch(/^whsec_/);
    expect(rolled.body.secret).not.toBe(created.body.secret);
    // The default overlap: the old secret still signs for a day; overlap_seconds=0 stops it at once.
    const overlapEnd = Date.parse(rolled.body.previous_secret_expires_at);
    expect(overlapEnd - Date.now()).toBeGreaterThan(86_000_000);
    expect(overlapEnd - Date.now()).toBeLessThanOrEqual(86_400_000);
    for (const bad of ['-1', '604801', 'soon', '1.5']) {
      const res = await api(acct, 'POST', `/api/webhook-endpoints/${id}/roll-secret?overlap_seconds=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.detail).toMatch(/^overlap_seconds/);
    }
    const now = await api(acct, 'POST', `/api/webhook-endpoints/${id}/roll-secret?overlap_seconds=0`);
    expect(now.status).toBe(200);
    expect(now.body.previous_secret_expires_at).toBeNull();
    expect((await api(acct, 'GET', `/api/webhook-endpoints/${id}`)).body.previous_secret_expires_at).toBeNull();

    // Another account: 404 for everything, and nothing changes.
    for (const [m, p, body] of [
      ['GET', `/api/webhook-endpoints/${id}`],
      ['PATCH', `/api/webhook-endpoints/${id}`, { description: 'stolen' }],
      ['POST', `/api/webhook-endpoints/${id}/roll-secret`],
      ['GET', `/api/webhook-endpoints/${id}/deliveries`],
      ['DELETE', `/api/webhook-endpoints/${id}`],
    ] as const) {
      const res = await api(other, m, p, body);
      expect(res.status, `${m} ${p}`).toBe(404);
      expect(typeof res.body.detail).toBe('string');
    }
    expect((await api(other, 'GET', '/api/webhook-endpoints')).body).toEqual([]);
    expect((await api(acct, 'GET', `/api/webhook-endpoints/${id}`)).body.description).toBe('x');

    // Bad input: 400 with a detail, nothing stored.
    for (const [body, detail] of [
      [{ url: 'ftp://example.com/x', event_types: ['transaction.created'] }, /url: must use http or https/],
      [{ url: 'not a url', event_types: ['transaction.created'] }, /url/],
      [{ url: r.url, event_types: [] }, /event_types/],
      [{ url: r.url, event_types: ['transaction.nope'] }, /event_types/],
      [{ url: r.url }, /event_types/],
      [{ url: 'http://169.254.169.254/latest/meta-data', event_types: ['transaction.created'] }, /link-local/],
      [{ url: 'http://10.0.0.1/hook', event_types: ['transaction.created'] }, /private/],
      [{ url: 'http://user:pw@example.com/hook', event_types: ['transaction.created'] }, /credentials/],
    ] as const) {
      const res = await api(acct, 'POST', '/api/webhook-endpoints', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await api(acct, 'PATCH', `/api/webhook-endpoints/${id}`, { url: 'http://[::ffff:169.254.169.254]/' })).status).toBe(
      400,
    );
    expect((await api(acct, 'PATCH', `/api/webhook-endpoints/${id}`, {})).status).toBe(400);
    expect((await api(acct, 'GET', '/api/webhook-endpoints')).body).toHaveLength(1);
    expect((await api(acct, 'GET', '/api/webhook-endpoints/we_AAAAAAAAAAAAAAAA')).status).toBe(404);

    expect((await api(acct, 'DELETE', `/api/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await api(acct, 'GET', `/api/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await api(acct, 'DELETE', `/api/webhook-endpoints/${id}`)).status).toBe(404);
  });

  it('retries a receiver answering 500 twice with growing delays, then delivers; every request verifies; the log shows three attempts', async () => {
    const r = track(
      await receiver((n, res) => (n <= 2 ? res.writeHead(500).end('oops '.repeat(400)) : res.writeHead(200).end('ok'))),
    );
    const ep = await api(acct, 'POST', '/api/webhook-endpoints', { url: r.url, event_types: ['transaction.created'] });
    expect(ep.status).toBe(201);
    const secret = ep.body.secret as string;

    const tx = await createTx(stack.gatewayUrl, acct);
    expect(tx.status).toBe(201);
    await eventually(async () => r.got.length >= 3, 20_000);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.got).toHaveLength(3);

    const ids = new Set(r.got.map((g) => g.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const g of r.got) {
      const payload = verified(secret, g);
      expect(payload.type).toBe('transaction.created');
      expect(payload.data.transaction).toMatchObject({ id: tx.body.id, reference: tx.body.reference, test: false });
      // Ids and state only: no signing token, link or media.
      expect(g.body).not.toContain(tx.body.token);
      expect(g.body).not.toContain('sign_url');
    }
    // A wrong secret does not verify.
    expect(() => verified(`whsec_${randomBytes(32).toString('base64')}`, r.got[0]!)).toThrow();
    const gap1 = r.got[1]!.at - r.got[0]!.at;
    const gap2 = r.got[2]!.at - r.got[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(700);
    expect(gap2).toBeGreaterThan(gap1);

    const log = await eventually(async () => {
      const res = await api(acct, 'GET', `/api/webhook-endpoints/${ep.body.id}/deliveries`);
      return res.body[0]?.status === 'delivered' ? res : undefined;
    });
    expect(log.body).toHaveLength(1);
    const d = log.body[0];
    expect(d).toMatchObject({
      event_type: 'transaction.created',
      transaction_id: tx.body.id,
      webhook_id: [...ids][0],
      next_attempt_at: null,
    });
    expect(d.attempts.map((a: { status: number; result: string }) => [a.status, a.result])).toEqual([
      [500, 'http_error'],
      [500, 'http_error'],
      [200, 'success'],
    ]);
    expect(Buffer.byteLength(d.attempts[0].response_snippet)).toBeLessThanOrEqual(1024);
    expect(d.attempts[2].response_snippet).toBe('ok');

    // Manual redelivery: the same webhook-id once more.
    const again = await api(acct, 'POST', `/api/webhook-endpoints/${ep.body.id}/deliveries/${d.id}/redeliver`);
    expect(again.status).toBe(202);
    await eventually(async () => r.got.length >= 4);
    expect(r.got[3]!.headers['webhook-id']).toBe(d.webhook_id);
    verified(secret, r.got[3]!);
    expect((await api(other, 'POST', `/api/webhook-endpoints/${ep.body.id}/deliveries/${d.id}/redeliver`)).status).toBe(404);
    await api(acct, 'DELETE', `/api/webhook-endpoints/${ep.body.id}`);
  });

  it('delivers one event once per endpoint, with one webhook-id, even when the service is stopped mid-delivery', async () => {
    // The first request to `slow` is held open until the service is gone; later ones are answered.
    const slow = track(await receiver((n, res) => (n === 1 ? undefined : res.writeHead(200).end())));
    const fast = track(await receiver(answer(200)));
    const a = await api(acct, 'POST', '/api/webhook-endpoints', { url: slow.url, event_types: ['transaction.cancelled'] });
    const b = await api(acct, 'POST', '/api/webhook-endpoints', { url: fast.url, event_types: ['transaction.cancelled'] });
    const tx = await createTx(stack.gatewayUrl, acct);
    expect((await api(acct, 'POST', `/api/transactions/${tx.body.id}/cancel`)).status).toBe(200);

    await eventually(async () => slow.got.length >= 1 && fast.got.length >= 1);
    await stack.stopService('transaction');
    await stack.startService('transaction');
    // The held attempt's claim expires (2 s here) and the restarted service sends it again.
    await eventually(async () => slow.got.length >= 2, 20_000);
    await new Promise((res) => setTimeout(res, 1500));

    expect(new Set(slow.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(new Set(fast.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(fast.got[0]!.headers['webhook-id']).toBe(slow.got[0]!.headers['webhook-id']);
    for (const g of slow.got)
      expect(verified(a.body.secret, g).data.transaction).toMatchObject({ id: tx.body.id, status: 'cancelled' });
    for (const g of fast.got) expect(verified(b.body.secret, g).type).toBe('transaction.cancelled');

    for (const ep of [a, b]) {
      const log = await eventually(async () => {
        const res = await api(acct, 'GET', `/api/webhook-endpoints/${ep.body.id}/deliveries`);
        return res.body.length && res.body.every((d: { status: string }) => d.status === 'delivered') ? res : undefined;
      });
      expect(log.body).toHaveLength(1);
    }
  });

  it('announces link_sent, the first open, a decline with its reason and an expiry, with the latest state', async () => {
    // A Free account's monthly quota is small: this test and the next have an account of their own.
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'lifecycle' });
    const r = track(await receiver(answer(200)));
    const ep = await api(acct, 'POST', '/api/webhook-endpoints', {
      url: r.url,
      event_types: ['signer.link_sent', 'signer.opened', 'signer.declined', 'transaction.expired'],
    });
    const declining = await createTx(stack.gatewayUrl, acct);
    const expiring = await createTx(stack.gatewayUrl, acct, [
      { name: 'expires_at', value: new Date(Date.now() + 3000).toISOString() },
    ]);
    expect([declining.status, expiring.status]).toEqual([201, 201]);
    // The signer opens the page (twice): one signer.opened.
    for (let i = 0; i < 2; i++)
      expect((await send(stack.gatewayUrl, 'GET', `/api/sign/${declining.body.token}/summary`)).status).toBe(200);
    const decline = await send(stack.gatewayUrl, 'POST', `/api/sign/${declining.body.token}/decline`, {
      json: { reason: 'Wrong amount' },
    });
    expect(decline.status).toBe(200);

    const of = (type: string, id: number) =>
      r.got.map((g) => verified(ep.body.secret, g)).filter((p) => p.type === type && p.data.transaction.id === id);
    await eventually(
      async () =>
        ['signer.link_sent', 'signer.opened', 'signer.declined'].every((t) => of(t, declining.body.id).length) &&
        of('transaction.expired', expiring.body.id).length,
      20_000,
    );
    // Nothing twice (a duplicate would have had time to arrive since the expiry, 3 s after creation).
    expect(of('signer.link_sent', declining.body.id).map((p) => p.data.signer.index)).toEqual([0]);
    expect(of('signer.opened', declining.body.id).map((p) => p.data.signer.index)).toEqual([0]);
    expect(of('signer.opened', expiring.body.id)).toEqual([]);
    const [d] = of('signer.declined', declining.body.id);
    expect(d!.data).toMatchObject({
      transaction: { status: 'declined' },
      signer: { index: 0, state: 'declined' },
      reason: 'Wrong amount',
    });
    const [x] = of('transaction.expired', expiring.body.id);
    expect(x!.data.transaction.status).toBe('expired');
    for (const g of r.got) expect(g.body).not.toContain(declining.body.token);
    await api(acct, 'DELETE', `/api/webhook-endpoints/${ep.body.id}`);
  });

  it('disables an endpoint that keeps failing and mails its owner', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'failing' });
    const r = track(await receiver(answer(503, 'down')));
    const ep = await api(acct, 'POST', '/api/webhook-endpoints', { url: r.url, event_types: ['transaction.created'] });
    await createTx(stack.gatewayUrl, acct);
    const off = await eventually(async () => {
      const res = await api(acct, 'GET', `/api/webhook-endpoints/${ep.body.id}`);
      return res.body.enabled === false ? res : undefined;
    }, 30_000);
    expect(off.body.disabled_reason).toBe('failing');
    expect(r.got).toHaveLength(4);
    const log = await api(acct, 'GET', `/api/webhook-endpoints/${ep.body.id}/deliveries`);
    expect(log.body[0]).toMatchObject({ status: 'failed' });
    expect(log.body[0].attempts).toHaveLength(4);
    const mails = await eventually(async () => {
      const m = await mailsTo(acct.email);
      return m.find((x) => /webhook endpoint was disabled/.test(x.Subject));
    });
    expect(mails).toBeTruthy();
    // Counted (since the service's restart in the test before): attempts by result, the give-up, latencies.
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
    expect(metrics).toMatch(/signet_transaction_webhook_deliveries_total\{[^}]*result="failed"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/signet_transaction_webhook_attempts_total\{[^}]*result="http_error"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/signet_transaction_webhook_attempt_duration_seconds_count\{[^}]*result="http_error"[^}]*\} [1-9]/);
    // Disabled: a redelivery is refused until it is enabled again.
    const again = await api(acct, 'POST', `/api/webhook-endpoints/${ep.body.id}/deliveries/${log.body[0].id}/redeliver`);
    expect(again.status).toBe(409);
  });
});

describe('outgoing webhooks with the operator setting off', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: { ...buckets, REFERENCE_FACE_CHECK: 'off', WEBHOOK_ALLOW_NETWORKS: '' },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses URLs resolving to loopback or the metadata address, and stores nothing', async () => {
    for (const [url, why] of [
      ['http://127.0.0.1:8080/hook', /loopback/],
      ['http://localhost:8080/hook', /loopback/],
      ['http://[::1]/hook', /loopback/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['https://192.168.1.10/hook', /private/],
    ] as const) {
      const res = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', {
        apiKey: acct.apiKey,
        json: { url, event_types: ['transaction.created'] },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.detail).toMatch(why);
    }
    expect((await send(stack.gatewayUrl, 'GET', '/api/webhook-endpoints', { apiKey: acct.apiKey })).body).toEqual([]);
  });
});
