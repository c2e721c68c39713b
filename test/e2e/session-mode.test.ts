/**
 * The dashboard's test/live switch through the gateway (issue 34 item 9): a session sees live data,
 * and with `Signet-Mode: test` sees and makes test data exactly as a test-mode key does (list, detail,
 * creation without quota); an API key keeps its own mode (the other one named is a 400, never a way
 * across); any other value is a 400.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');
const TEST = { 'signet-mode': 'test' };

describe('Signet-Mode: a session’s test/live switch', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let testKey: string;
  let liveId: number;
  let testId: number;

  const create = async (auth: { apiKey?: string; token?: string }, headers: Record<string, string> = {}) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      ...auth,
      headers,
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
  const ids = (r: { body: { id: number }[] }) => r.body.map((t) => t.id).sort();

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'SMODE',
        BUCKET_DOCUMENTS: `smode-docs-${suffix}`,
        BUCKET_REFERENCES: `smode-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    a = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'mode' });
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: a.token })).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: a.token,
      json: { name: 'sandbox', mode: 'test' },
    });
    testKey = key.body.key as string;
    liveId = (await create({ apiKey: a.apiKey })).body.id;
    testId = (await create({ apiKey: testKey })).body.id;
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('a session sees live data without the header, test data with it', async () => {
    const token = { token: a.token };
    expect(ids(await send(stack.gatewayUrl, 'GET', '/api/transactions', token))).toEqual([liveId]);
    expect(ids(await send(stack.gatewayUrl, 'GET', '/api/transactions', { ...token, headers: TEST }))).toEqual([testId]);
    expect((await send(stack.gatewayUrl, 'GET', `/api/transactions/${testId}`, token)).status).toBe(404);
    const t = await send(stack.gatewayUrl, 'GET', `/api/transactions/${testId}`, { ...token, headers: TEST });
    expect(t.status).toBe(200);
    expect(t.body.test).toBe(true);
    expect((await send(stack.gatewayUrl, 'GET', `/api/transactions/${liveId}`, { ...token, headers: TEST })).status).toBe(404);
    const live = await send(stack.gatewayUrl, 'GET', `/api/transactions/${liveId}`, {
      ...token,
      headers: { 'signet-mode': 'live' },
    });
    expect(live.body.test).toBe(false);
  });

  it('a session in test mode creates test transactions, without quota', async () => {
    const me = async () => (await send(stack.gatewayUrl, 'POST', '/api/auth/me', { token: a.token })).body.monthly_used;
    const before = await me();
    const r = await create({ token: a.token }, TEST);
    expect(r.status, r.text).toBe(201);
    expect(r.body.test).toBe(true);
    expect(await me()).toBe(before);
  });

  it('an API key keeps its mode: naming the other is a 400; a bad value is a 400', async () => {
    const live = await send(stack.gatewayUrl, 'GET', '/api/transactions', { apiKey: a.apiKey, headers: TEST });
    expect(live.status).toBe(400);
    expect(live.body.detail).toMatch(/Signet-Mode/);
    const test = await send(stack.gatewayUrl, 'GET', '/api/transactions', {
      apiKey: testKey,
      headers: { 'signet-mode': 'live' },
    });
    expect(test.status).toBe(400);
    expect((await send(stack.gatewayUrl, 'GET', '/api/transactions', { apiKey: testKey, headers: TEST })).status).toBe(200);
    const bad = await send(stack.gatewayUrl, 'GET', '/api/transactions', {
      token: a.token,
      headers: { 'signet-mode': 'sandbox' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/live or test/);
  });
});
