/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The dashboard's webhooks section in headless Chromium against the real gateway and services: add
 * an endpoint (the secret shown once verifies what a real receiver on 127.0.0.1 gets), see its
 * recent deliveries after a transaction is created, disable it; a test-mode endpoint shows its mode;
 * one disabled for failing is announced above the list (issue 31); axe-core finds nothing on the page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { launchChromium } from './chromium.js';
import { createAccount, type Account } from '../../harness/accounts.js';
import { eventually, infra, startServices } from '../../harness/services.js';
import { pngPhoto, tinyPdf } from '../../fixtures/documents.js';
import { send } from '../../support/http.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const suffix = randomBytes(3).toString('hex');

describe('the dashboard’s webhooks section', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let acct: Account;
  const work = mkdtempSync(join(tmpdir(), 'signet-webhooks-'));
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end('thanks');
    });
  });

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        BUCKET_DOCUMENTS: `wh-docs-${suffix}`,
        BUCKET_REFERENCES: `wh-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
        WEBHOOK_POLL_MS: '200',
        // An endpoint failing every attempt for a second is disabled (the default is 5 days).
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_RETRY_CAP_MS: '400',
        WEBHOOK_DISABLE_AFTER_MS: '1000',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'hooks' });
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 } });
    page = context.pages()[0] ?? (await context.newPage());
    // Signed in as the account: the dashboard keeps its session token in localStorage.
    await page.goto(`${stack.gatewayUrl}/app/login`);
    await page.evaluate((t) => localStorage.setItem('signet.session', t), acct.token);
  });
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    rmSync(work, { recursive: true, force: true });
  });

  async function axe() {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
    return page.evaluate(async () => {
      const res = await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return (res as { violations: { id: string; nodes: { target: string[] }[] }[] }).violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
    });
  }

  it('adds an endpoint, shows its secret once, lists its deliveries and disables it', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await page.goto(`${stack.gatewayUrl}/app/webhooks`);
    await page.waitForSelector('body[data-page="webhooks"]', { timeout: 20_000 });
    expect(await page.textContent('#hooks')).toContain('No endpoints yet.');

    // Nothing checked: the API's 400 is shown beside the events.
    await page.fill('input[name="url"]', url);
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-field="event_types"] .field-error:not([hidden])');

    await page.check('input[value="transaction.created"]');
    await page.fill('input[name="description"]', 'Browser test');
    await page.click('button[type="submit"]');
    const secret = (await (await page.waitForSelector('#new-hook-secret')).textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await page.textContent('#hooks')).toContain(url);
    expect(await axe()).toEqual([]);

    const tx = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(tx.status).toBe(201);
    await eventually(async () => got.length >= 1);
    const h = got[0]!.headers;
    const payload = new Webhook(secret).verify(got[0]!.body, {
      'webhook-id': String(h['webhook-id']),
      'webhook-timestamp': String(h['webhook-timestamp']),
      'webhook-signature': String(h['webhook-signature']),
    }) as { type: string; data: { transaction: { id: number } } };
    expect(payload).toMatchObject({ type: 'transaction.created', data: { transaction: { id: tx.body.id } } });

    await page.click('button[data-log]');
    const row = await page.waitForSelector('#deliveries tr[data-delivery]');
    expect(await row.textContent()).toMatch(/transaction\.created.*Delivered/);
    expect(await row.textContent()).toContain('200 in');
    expect(await axe()).toEqual([]);

    // Redeliver: the same message (same webhook-id) arrives again, and the list shows its new attempt.
    await page.click('#deliveries button[data-redeliver]');
    await eventually(async () => got.length >= 2);
    expect(got[1]!.headers['webhook-id']).toBe(h['webhook-id']);
    // (its attempt is recorded after the receiver answered: the list is asked again until it shows it)
    await eventually(async () => {
      await page.click('button[data-log]');
      await page.waitForSelector('#deliveries tr[data-delivery]');
      return (await page.textContent('#deliveries td[data-label="Attempts"]')) === '2';
    });

    await page.click('button[data-toggle]');
    await page.waitForFunction(() => document.querySelector('#hooks')?.textContent?.includes('Disabled'));
    // A reload shows the secret no more.
    await page.reload();
    await page.waitForSelector('body[data-page="webhooks"]');
    expect(await page.content()).not.toContain(secret);

    // Delete: "Keep it" changes nothing; confirming removes the endpoint from the list and the API.
    await page.click('button[data-delete]');
    await page.click('dialog[open] button[data-confirm="no"]');
    expect(await page.textContent('#hooks')).toContain(url);
    await page.click('button[data-delete]');
    await page.click('dialog[open] button[data-confirm="yes"]');
    await page.waitForFunction(() => document.querySelector('#hooks')?.textContent?.includes('No endpoints yet.'));
    expect((await send(stack.gatewayUrl, 'GET', '/api/webhook-endpoints', { token: acct.token })).body).toEqual([]);
  });

  it('adds a test-mode endpoint, and says which endpoints were disabled for failing', async () => {
    await page.goto(`${stack.gatewayUrl}/app/webhooks`);
    await page.waitForSelector('body[data-page="webhooks"]', { timeout: 20_000 });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/test-hooks`;
    await page.fill('input[name="url"]', url);
    await page.check('input[value="transaction.created"]');
    await page.check('input[name="test_mode"]');
    await page.click('button[type="submit"]');
    await page.waitForSelector('#new-hook-secret');
    const row = await page.waitForSelector(`#hooks tr:has(code:text-is("${url}"))`);
    expect(await row.textContent()).toContain('Test');
    expect(await page.isHidden('#hooks-failing')).toBe(true);

    // A live endpoint on a closed port: every attempt fails, and after a second of that it is disabled.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/dead`;
    await new Promise((r) => closed.close(r));
    const dead = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', {
      token: acct.token,
      json: { url: deadUrl, event_types: ['transaction.created'] },
    });
    expect(dead.status).toBe(201);
    const tx = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada2-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(tx.status).toBe(201);
    await eventually(async () => {
      const r = await send(stack.gatewayUrl, 'GET', `/api/webhook-endpoints/${dead.body.id}`, { token: acct.token });
      return r.body.enabled === false && r.body.disabled_reason === 'failing';
    }, 30_000);
    await page.reload();
    await page.waitForSelector('body[data-page="webhooks"]');
    const notice = await page.waitForSelector('#hooks-failing:not([hidden])');
    expect(await notice.textContent()).toContain(deadUrl);
    expect(await page.textContent(`#hooks tr[data-endpoint="${dead.body.id}"]`)).toContain('Disabled after repeated failures');
    expect(await axe()).toEqual([]);
  });
});
