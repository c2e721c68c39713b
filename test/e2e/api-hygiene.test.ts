/**
 * Issue 31 item 7 through the gateway: `X-Content-Type-Options: nosniff` on every answer and
 * Strict-Transport-Security only when a trusted proxy reports HTTPS; `test/complete` answers one
 * outcome only; a creation may not ask for reminders more often than hourly.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

describe('API hygiene: security headers, one test outcome, an hourly reminder floor', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let testKey: string;

  beforeAll(async () => {
    // TRUSTED_PROXIES stays the gateway's default (loopback): these requests come from a trusted proxy.
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { REFERENCE_PREFIX: 'HYG' },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'hygiene' });
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'hygiene', mode: 'test' },
    });
    testKey = key.body.key as string;
    expect(testKey).toMatch(/^sgn_test_/);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const create = (fields: Record<string, string> = {}) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: testKey,
      parts: [
        { name: 'signer_name', value: 'Hy Giene' },
        { name: 'signer_email', value: `hy-${randomBytes(3).toString('hex')}@example.com` },
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });

  it('sends nosniff on every answer: the document, JSON errors, 404s, pages, probes', async () => {
    const answers = [
      await send(stack.gatewayUrl, 'GET', '/api/openapi.json'),
      await send(stack.gatewayUrl, 'GET', '/api/no-such-thing'),
      await send(stack.gatewayUrl, 'GET', '/api/transactions'),
      await send(stack.gatewayUrl, 'POST', '/api/auth/login', { json: { email: 'x' } }),
      await send(stack.gatewayUrl, 'GET', '/api/transactions', { apiKey: acct.apiKey }),
      await send(stack.gatewayUrl, 'GET', '/app'),
      await send(stack.gatewayUrl, 'GET', '/healthz'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 400, 200, expect.any(Number), expect.any(Number)]);
    for (const r of answers)
      expect(r.headers.get('x-content-type-options'), `${r.status} ${r.text.slice(0, 80)}`).toBe('nosniff');
  });

  it('sends Strict-Transport-Security only to a request a trusted proxy reports as HTTPS', async () => {
    const plain = await send(stack.gatewayUrl, 'GET', '/api/openapi.json');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const viaProxy = await send(stack.gatewayUrl, 'GET', '/api/openapi.json', { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const error = await send(stack.gatewayUrl, 'GET', '/api/transactions', { headers: { 'x-forwarded-proto': 'https' } });
    expect([error.status, error.headers.get('strict-transport-security')]).toEqual([401, 'max-age=31536000']);

    // A gateway that believes no proxy ignores the same header: whoever sent it cannot pin HSTS.
    const strict = await startServices(['gateway'], { env: { TRUSTED_PROXIES: '' } });
    try {
      const forged = await send(strict.gatewayUrl, 'GET', '/api/openapi.json', { headers: { 'x-forwarded-proto': 'https' } });
      expect(forged.status).toBe(200);
      expect(forged.headers.get('strict-transport-security')).toBeNull();
      expect(forged.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await strict.stop();
    }
  });

  it('test/complete answers one outcome: after verified, either outcome again is 409 and the log holds one', async () => {
    const tx = await create();
    expect(tx.status, tx.text).toBe(201);
    const complete = (outcome: string) =>
      send(stack.gatewayUrl, 'POST', `/api/transactions/${tx.body.id}/test/complete`, { apiKey: testKey, json: { outcome } });
    const first = await complete('verified');
    expect(first.status, first.text).toBe(200);
    for (const outcome of ['failed', 'verified']) {
      const again = await complete(outcome);
      expect(again.status, again.text).toBe(409);
      expect(again.body.detail).toMatch(/already has its outcome/);
    }
    const detail = await send(stack.gatewayUrl, 'GET', `/api/transactions/${tx.body.id}`, { apiKey: testKey });
    const outcomes = (detail.body.events as { type: string }[]).filter((e) => e.type.startsWith('test_completed_'));
    expect(outcomes.map((e) => e.type)).toEqual(['test_completed_verified']);
    expect(detail.body.status).not.toBe('failed');

    // After failed the transaction has ended: a second outcome is refused too.
    const other = await create();
    const fail = await send(stack.gatewayUrl, 'POST', `/api/transactions/${other.body.id}/test/complete`, {
      apiKey: testKey,
      json: { outcome: 'failed' },
    });
    expect(fail.status, fail.text).toBe(200);
    const late = await send(stack.gatewayUrl, 'POST', `/api/transactions/${other.body.id}/test/complete`, {
      apiKey: testKey,
      json: { outcome: 'verified' },
    });
    expect(late.status, late.text).toBe(409);
  });

  it('refuses a reminder interval under an hour with 400 naming the field; an hour is accepted', async () => {
    for (const every of ['1', '60', '3599']) {
      const r = await create({ reminder_every_seconds: every });
      expect(r.status, `${every}: ${r.text}`).toBe(400);
      expect(r.body.detail).toBe('reminder_every_seconds: must be at least 3600 (1 hour)');
    }
    const hourly = await create({ reminder_every_seconds: '3600' });
    expect(hourly.status, hourly.text).toBe(201);
  });
});
