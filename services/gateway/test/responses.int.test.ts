import type { Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createLogger, Metrics, parseConfig } from '@signet/kit';
import {
  billingV1,
  ceremonyV1,
  identitySecurityV1,
  identityV1,
  ledgerV1,
  transactionBulkV1,
  transactionV1,
  transactionWebhooksV1,
} from '@signet/proto';
import { pngPhoto, tinyPdf } from '../../../test/fixtures/documents.js';
import { createAccount, type Account } from '../../../test/harness/accounts.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { send } from '../../../test/support/http.js';
import { buildApp } from '../src/app.js';
import { gatewayConfigSchema } from '../src/config.js';
import type { GatewayContext } from '../src/http/context.js';

/**
 * The declared operations' answers against their own schemas: the gateway runs with
 * validateResponses, so an answer whose status, body or required headers its declaration does not
 * describe is a 500 here (route.ts). Real identity, billing, transaction and ceremony behind it.
 */
describe('declared answers match their schemas (validateResponses, real services)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let ctx: GatewayContext;
  let server: Server;
  let acct: Account;
  const base = () => stack.gatewayUrl;
  const ip = () => ({ 'x-forwarded-for': `10.66.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}` });

  beforeAll(async () => {
    const suffix = randomBytes(3).toString('hex');
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'ledger'], {
      env: {
        BUCKET_DOCUMENTS: `resp-docs-${suffix}`,
        BUCKET_REFERENCES: `resp-refs-${suffix}`,
        BUCKET_CAPTURES: `resp-caps-${suffix}`,
      },
    });
    const url = new URL(stack.gatewayUrl);
    const cfg = parseConfig(gatewayConfigSchema, { ...stack.env, HTTP_PORT: url.port, OPS_PORT: '1' });
    const metrics = new Metrics('gateway');
    const deps = { metrics, defaultDeadlineMs: cfg.RPC_DEADLINE_MS };
    const redis = new Redis(infra().REDIS_URL);
    ctx = {
      cfg,
      logger: createLogger('gateway-test', 'silent'),
      metrics,
      redis,
      identity: createClient(identityV1.IdentityServiceClient, cfg.IDENTITY_ADDR, deps),
      security: createClient(identitySecurityV1.SecurityServiceClient, cfg.IDENTITY_ADDR, deps),
      billing: createClient(billingV1.BillingServiceClient, cfg.BILLING_ADDR, deps),
      transaction: createClient(transactionV1.TransactionServiceClient, cfg.TRANSACTION_ADDR, deps),
      webhooks: createClient(transactionWebhooksV1.WebhookServiceClient, cfg.TRANSACTION_ADDR, deps),
      bulk: createClient(transactionBulkV1.BulkServiceClient, cfg.TRANSACTION_ADDR, deps),
      ceremony: createClient(ceremonyV1.CeremonyServiceClient, cfg.CEREMONY_ADDR, deps),
      ledger: createClient(ledgerV1.LedgerServiceClient, cfg.LEDGER_ADDR, deps),
      validateResponses: true,
    };
    server = buildApp(ctx, []).listen(Number(url.port), url.hostname);
    await new Promise((r) => server.once('listening', r));
    acct = await createAccount(base(), infra().MAILPIT_URL, { tag: 'responses' });
  });
  afterAll(async () => {
    server?.close();
    for (const c of [ctx?.identity, ctx?.billing, ctx?.transaction, ctx?.webhooks, ctx?.ceremony, ctx?.ledger]) c?.close();
    ctx?.redis.disconnect();
    await stack?.stop();
  });

  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(base(), method, path, { ...init, headers: { ...ip(), ...init.headers } });

  it('transactions: create, list (paged), detail, resend, cancel, export', async () => {
    const create = () =>
      api('POST', '/api/transactions', {
        apiKey: acct.apiKey,
        headers: { 'Idempotency-Key': randomUUID() },
        parts: [
          { name: 'signer_name', value: 'Ada Lovelace' },
          { name: 'signer_email', value: `ada-${randomBytes(3).toString('hex')}@example.com` },
          // The ceremony below takes a single-upload challenge, offered only where recorded is accepted.
          { name: 'required_assurance', value: 'recorded' },
          { name: 'document', filename: 'c.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
          { name: 'reference', filename: 'f.png', contentType: 'image/png', data: pngPhoto() },
        ],
      });
    const a = await create();
    expect(a.status, a.text).toBe(201);
    const b = await create();
    expect(b.status, b.text).toBe(201);
    const page = await api('GET', '/api/transactions?limit=1', { apiKey: acct.apiKey });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('x-next-cursor')).toBeTruthy();
    const detail = await api('GET', `/api/transactions/${a.body.id}`, { apiKey: acct.apiKey });
    expect(detail.status, detail.text).toBe(200);
    const cancel = await api('POST', `/api/transactions/${b.body.id}/cancel`, { apiKey: acct.apiKey });
    expect(cancel.status, cancel.text).toBe(200);
    const resend = await api('POST', `/api/transactions/${a.body.id}/resend`, { apiKey: acct.apiKey });
    expect([200, 429], resend.text).toContain(resend.status);
    const csv = await api('GET', '/api/transactions/export.csv', { apiKey: acct.apiKey });
    expect(csv.status).toBe(200);
    token = a.body.token;
  });

  it('profile, e-mail check, TOTP setup, the dashboard API; certificate and verification refusals', async () => {
    // createAccount went through register, verify-email and onboarding on this gateway.
    const me = await api('POST', '/api/auth/me', { apiKey: acct.apiKey });
    expect(me.status, me.text).toBe(200);
    const exists = await api('POST', '/api/auth/check-email', { json: { email: acct.email } });
    expect(exists.status, exists.text).toBe(200);
    const setup = await api('POST', '/api/auth/2fa/setup', { token: acct.token });
    expect(setup.status, setup.text).toBe(200);
    const csrf = await api('GET', '/api/admin/csrf', { token: acct.token });
    expect(csrf.status, csrf.text).toBe(200);
    const q = `csrf=${encodeURIComponent(csrf.body.csrf)}`;
    const key = await api('POST', `/api/admin/api-keys?${q}`, { token: acct.token, json: { name: 'responses' } });
    expect(key.status, key.text).toBe(201);
    const keys = await api('GET', '/api/admin/api-keys', { token: acct.token });
    expect(keys.status, keys.text).toBe(200);
    const revoked = await api('DELETE', `/api/admin/api-keys/${key.body.id}?${q}`, { token: acct.token });
    expect(revoked.status, revoked.text).toBe(204);
    const settings = await api('PATCH', `/api/admin/account/settings?${q}`, {
      token: acct.token,
      json: { session_ttl_hours: 48 },
    });
    expect(settings.status, settings.text).toBe(200);
    const account = await api('GET', '/api/admin/account', { token: acct.token });
    expect(account.status, account.text).toBe(200);
    const early = await api('GET', `/api/transactions/1/certificate.pdf`, { apiKey: acct.apiKey });
    expect([404, 409]).toContain(early.status);
    const unknown = await api('GET', '/api/verify/SIG-TX-00000001/0123456789abcdef');
    expect([404, 503]).toContain(unknown.status);
  });

  it('ledger: public key and checkpoint', async () => {
    const key = await api('GET', '/api/ledger/public-key');
    expect(key.status, key.text).toBe(200);
    const checkpoint = await api('GET', '/api/ledger/checkpoint');
    expect(checkpoint.status, checkpoint.text).toBe(200);
    const keys = await api('GET', '/api/ledger/keys');
    expect(keys.status, keys.text).toBe(200);
  });

  it('webhook endpoints: create, list, get, update, roll, deliveries, redeliver refusal, delete', async () => {
    const key = { apiKey: acct.apiKey };
    // A public address literal (no DNS) and an event that has no source yet: nothing is ever sent.
    const created = await api('POST', '/api/webhook-endpoints', {
      ...key,
      json: { url: 'https://93.184.215.14/hooks', event_types: ['signer.opened'], description: 'schema check' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    for (const [m, p, json, want] of [
      ['GET', '/api/webhook-endpoints', undefined, 200],
      ['GET', `/api/webhook-endpoints/${id}`, undefined, 200],
      ['PATCH', `/api/webhook-endpoints/${id}`, { enabled: false, description: '' }, 200],
      ['POST', `/api/webhook-endpoints/${id}/roll-secret`, undefined, 200],
      ['GET', `/api/webhook-endpoints/${id}/deliveries?limit=5`, undefined, 200],
      ['POST', `/api/webhook-endpoints/${id}/deliveries/wd_${'A'.repeat(27)}/redeliver`, undefined, 409],
      ['POST', '/api/webhook-endpoints', { url: 'http://169.254.169.254/', event_types: ['signer.opened'] }, 400],
      ['DELETE', `/api/webhook-endpoints/${id}`, undefined, 204],
      ['GET', `/api/webhook-endpoints/${id}`, undefined, 404],
    ] as const) {
      const res = await api(m, p, { ...key, json });
      expect(res.status, `${m} ${p}: ${res.text}`).toBe(want);
    }
  });

  let token = '';
  it('signing ceremony: summary, consent, challenge, WebAuthn options, forensic events, live start', async () => {
    const summary = await api('GET', `/api/sign/${token}/summary`);
    expect(summary.status, summary.text).toBe(200);
    const consent = await api('POST', `/api/sign/${token}/consent`, {
      json: { consent_text_version: summary.body.consent_text_version },
    });
    expect(consent.status, consent.text).toBe(201);
    const challenge = await api('GET', `/api/sign/${token}/challenge`);
    expect(challenge.status, challenge.text).toBe(200);
    const options = await api('POST', `/api/sign/${token}/webauthn/options`);
    expect(options.status, options.text).toBe(200);
    const forensic = await api('POST', `/api/sign/${token}/forensic`, {
      json: { events: [{ type: 'camera_enumeration', t: 1 }] },
    });
    expect(forensic.status, forensic.text).toBe(202);
    const live = await api('POST', `/api/sign/${token}/live`);
    expect(live.status, live.text).toBe(201);
  });
});
