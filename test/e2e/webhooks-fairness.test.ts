import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { answering, hanging, webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 31 item 3, through the gateway: one owner's dead receivers cost only that owner. Owner A has
 * 20 endpoints that never answer; while A's attempts hang (none given up: the attempt timeout is a
 * minute here), owner B's delivery to a healthy receiver arrives. Not a timed assertion: B must
 * arrive while every one of A's attempts is still in flight. Before fair delivery, 8 global workers
 * all hung on A's endpoints, and B's delivery waited for A's attempts to time out.
 */

const suffix = randomBytes(3).toString('hex');
const buckets = { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` };
const OWNER_SHARE = 8;

describe('fair webhook delivery', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let b: Account;
  const receivers: WebhookReceiver[] = [];

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
  const endpoint = async (acct: Account, url: string) => {
    const r = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', {
      apiKey: acct.apiKey,
      json: { url, event_types: ['transaction.created'] },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: {
        ...buckets,
        REFERENCE_FACE_CHECK: 'off',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_POLL_MS: '100',
        // A's attempts hang for a minute and their claims hold longer: nothing of A's ends during the test.
        WEBHOOK_ATTEMPT_TIMEOUT_MS: '60000',
        WEBHOOK_LEASE_MS: '120000',
        WEBHOOK_OWNER_CONCURRENCY: String(OWNER_SHARE),
      },
    });
    a = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'slow' });
    b = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'healthy' });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await stack?.stop();
  });

  it("delivers another owner's event while all of one owner's attempts hang, that owner holding only its share", async () => {
    const dead = await webhookReceiver(hanging);
    const healthy = await webhookReceiver(answering(204));
    receivers.push(dead, healthy);
    for (let i = 0; i < 20; i++) await endpoint(a, `${dead.url}/${i}`);
    const bEndpoint = await endpoint(b, healthy.url);

    expect((await createTx(a.apiKey)).status).toBe(201);
    // A's 20 deliveries are due; its share of them is in flight and hangs.
    await eventually(async () => dead.state.open >= OWNER_SHARE, 60_000);

    const bTx = await createTx(b.apiKey);
    expect(bTx.status).toBe(201);
    await eventually(async () => healthy.got.length >= 1, 55_000);
    // B arrived while none of A's attempts had ended, and A held no more than its share.
    expect(dead.state.ended).toBe(0);
    expect(dead.state.open).toBe(OWNER_SHARE);
    expect(dead.got).toHaveLength(OWNER_SHARE);
    expect(JSON.parse(healthy.got[0]!.body).data.transaction.id).toBe(bTx.body.id);
    const log = await send(stack.gatewayUrl, 'GET', `/api/webhook-endpoints/${bEndpoint}/deliveries`, { apiKey: b.apiKey });
    expect(log.body[0]).toMatchObject({ status: 'delivered', transaction_id: bTx.body.id });

    // The job says who is held back: one owner at its share.
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
    expect(metrics).toMatch(/signet_transaction_webhook_at_fair_share\{[^}]*limit="owner"[^}]*\} 1\b/);
    expect(metrics).toMatch(/signet_transaction_webhook_in_flight(\{[^}]*\})? 8\b/);
  });
});
