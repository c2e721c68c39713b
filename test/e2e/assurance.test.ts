/**
 * Issue 30 item 2: the assurance a signer's ceremony achieved, with the sentence of what it proves,
 * reaches everyone who relies on it — through the gateway only, on real identity, billing,
 * transaction and ledger services. The cheapest completed transaction is a test-mode one (its
 * `test/complete` route passes the signer with the level `test`: no ceremony ran), so the chain is
 * checked end to end with that level: the transaction detail, the webhook payload (signed, to a real
 * receiver), GET /api/verify, the certificate PDF and the /verify page. The live levels and the
 * weakest-signer rule are checked on certificates issued from events in verify.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { answering, webhookReceiver, type Received, type WebhookReceiver } from '../support/webhook-receiver.js';

const suffix = randomBytes(3).toString('hex');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** For callbacks that run in the page; test/ has no DOM types. */
type PageGlobal = { document: { getElementById(id: string): { textContent: string | null } | null } };

const TEST_MEANING =
  'No ceremony took place: a test-mode transaction completed by its sender, which proves nothing about the signer.';

type Payload = { type: string; data: { transaction: Record<string, unknown> } };

describe('the achieved assurance in the detail, webhooks, verification and the certificate', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let testKey: string;
  let hooks: WebhookReceiver;
  let secret: string;
  let dir: string;

  const call = (method: string, path: string, init: { parts?: Part[]; json?: unknown } = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, apiKey: testKey });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-assurance-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'ASSUR',
        BUCKET_DOCUMENTS: `assurance-docs-${suffix}`,
        BUCKET_REFERENCES: `assurance-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_POLL_MS: '100',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'assurance' });
    const auth = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
    hooks = await webhookReceiver(answering(204));
    const ep = await call('POST', '/api/webhook-endpoints', {
      json: { url: hooks.url, event_types: ['transaction.completed'] },
    });
    expect(ep.status, ep.text).toBe(201);
    secret = ep.body.secret as string;
  }, 120_000);

  afterAll(async () => {
    await hooks?.close();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The deliveries of `type`, verified with the endpoint's secret as a customer would. */
  const delivered = (type: string): Payload[] =>
    hooks.got
      .map((r: Received) =>
        new Webhook(secret).verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }),
      )
      .filter((p): p is Payload => (p as Payload).type === type);

  it('null before the signer passed; the level and its sentence after, per signer and for the transaction', async () => {
    const pdf = tinyPdf(randomUUID());
    const created = await call('POST', '/api/transactions', {
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${suffix}@example.com` },
        { name: 'document', data: pdf, filename: 'contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { id, reference } = created.body as { id: number; reference: string };

    const before = (await call('GET', `/api/transactions/${id}`)).body;
    expect(before).toMatchObject({ assurance: null, assurance_meaning: null });
    expect(before.signers[0]).toMatchObject({ assurance: null, assurance_meaning: null });

    const done = await call('POST', `/api/transactions/${id}/test/complete`, { json: { outcome: 'verified' } });
    expect(done.status, done.text).toBe(200);
    const detail = await eventually(async () => {
      const d = (await call('GET', `/api/transactions/${id}`)).body;
      return d.status === 'ledger_issued' ? d : undefined;
    }, 30_000);
    expect(detail).toMatchObject({ assurance: 'test', assurance_meaning: TEST_MEANING });
    expect(detail.signers[0]).toMatchObject({ assurance: 'test', assurance_meaning: TEST_MEANING });

    // Webhooks: transaction.completed carries each signer's level and the transaction's. (A test
    // completion passes its signers without signer.verified facts; that payload's `data.signer` is the
    // same object, checked in webhook-payload.test.ts.)
    const completed = await eventually(async () => {
      const c = delivered('transaction.completed');
      if (!c.length) throw new Error(`received ${hooks.got.length}: ${hooks.got.map((r) => r.body.slice(0, 40)).join(', ')}`);
      return c[0]!;
    }, 30_000);
    expect(completed.data.transaction).toMatchObject({
      id,
      assurance: 'test',
      assurance_meaning: TEST_MEANING,
      signers: [{ index: 0, state: 'passed', assurance: 'test', assurance_meaning: TEST_MEANING }],
    });

    // The public verification and the certificate PDF say the same.
    const prefix = createHash('sha256').update(pdf).digest('hex').slice(0, 16);
    const v = await eventually(async () => {
      const r = await send(stack.gatewayUrl, 'GET', `/api/verify/${reference}/${prefix}`);
      return r.status === 200 ? r.body : undefined;
    }, 30_000);
    expect(v).toMatchObject({
      log: 'test',
      assurance: 'test',
      assurance_meaning: TEST_MEANING,
      signers: [{ name: 'Ada Lovelace', role: 'signer', assurance: 'test', assurance_meaning: TEST_MEANING }],
    });
    const certPdf = await fetch(`${stack.gatewayUrl}/api/transactions/${id}/certificate.pdf`, {
      headers: { 'x-api-key': testKey },
    });
    expect(certPdf.status).toBe(200);
    const file = join(dir, 'certificate.pdf');
    writeFileSync(file, Buffer.from(await certPdf.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain(`Assurance test - ${TEST_MEANING}`);

    // The /verify page shows the level and what it proves.
    if (!existsSync(CHROMIUM)) return;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${stack.gatewayUrl}/verify`);
      await page.fill('#ref', reference);
      await page.setInputFiles('#pdf', { name: 'contract.pdf', mimeType: 'application/pdf', buffer: pdf });
      await page.waitForFunction(
        () =>
          /^(TEST|Verified|Not verified)/.test(
            (globalThis as unknown as PageGlobal).document.getElementById('result')?.textContent ?? '',
          ),
        null,
        { timeout: 15_000 },
      );
      const rows = await page.$$eval('#details dt', (dts) =>
        dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
      expect(rows).toContainEqual(['Assurance', `test: ${TEST_MEANING}`]);
      expect(rows).toContainEqual(['Sealed in log', 'TEST log (test mode: no real signing took place)']);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
