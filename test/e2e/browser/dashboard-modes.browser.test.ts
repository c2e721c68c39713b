/// <reference lib="dom" />
/**
 * The dashboard fixes of issue 34 item 9 in headless Chromium at 1280 × 800, against the real gateway,
 * identity, billing and transaction services:
 * - the test/live switch: the list shows live transactions, and test ones once the switch is on (a
 *   banner says so); a link to a test transaction opens it — and turns the switch on — instead of
 *   "Transaction not found";
 * - Billing on a Free account whose quota is spent and that has no credits says so and offers credits
 *   first (not "new transactions use credits");
 * - a favicon is served; the quick-start code fits the card at 1280 px with a real key in it;
 * - the heading focused on each page load has no focus frame;
 * - Account's embedding origins (issue 34 item 6): a bad origin shown beside the field, a good list saved.
 * Screenshots go to test-artifacts/dashboard-modes/.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { createAccount, type Account } from '../../harness/accounts.js';
import { infra, startServices } from '../../harness/services.js';
import { pngPhoto, tinyPdf } from '../../fixtures/documents.js';
import { send } from '../../support/http.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/dashboard-modes');
const suffix = randomBytes(3).toString('hex');

describe('the dashboard’s test/live switch, billing text, favicon, quick start and headings', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let acct: Account;
  let testKey: string;
  const live: number[] = [];
  let testTx: number;
  const work = mkdtempSync(join(tmpdir(), 'signet-dash-modes-'));
  const errors: string[] = [];

  const create = async (key: string, name: string): Promise<number> => {
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: key,
      parts: [
        { name: 'signer_name', value: name },
        { name: 'signer_email', value: `s-${randomBytes(3).toString('hex')}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    return r.body.id as number;
  };
  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
  const shot = (file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });
  const rows = () => page.$$eval('tr[data-id]', (trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.id)));

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'DMOD',
        BUCKET_DOCUMENTS: `dmod-docs-${suffix}`,
        BUCKET_REFERENCES: `dmod-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        CHECKOUT_URL_CREDITS: 'https://pay.example/credits',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'modes' });
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
    // A Free account's three a month: the quota is spent; no credits were bought.
    for (const n of ['Live One', 'Live Two', 'Live Three']) live.push(await create(acct.apiKey, n));
    testTx = await create(testKey, 'Test Signer');
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${stack.gatewayUrl}/app/login`);
    await page.evaluate((t) => localStorage.setItem('signet.session', t), acct.token);
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the switch shows live or test transactions, with a banner in test', async () => {
    await page.goto(`${stack.gatewayUrl}/app/transactions`);
    await at('transactions');
    await page.waitForSelector('tr[data-id]');
    expect((await rows()).sort()).toEqual([...live].sort());
    expect(await page.isHidden('#test-banner')).toBe(true);
    expect(await page.isChecked('#mode-test')).toBe(false);

    await page.click('#mode-test');
    await page.waitForFunction((id) => !!document.querySelector(`tr[data-id="${id}"]`), testTx, { timeout: 20_000 });
    expect(await rows()).toEqual([testTx]);
    expect(await page.isVisible('#test-banner')).toBe(true);
    await shot('01-test-data-1280.png');

    await page.click('#mode-test');
    await page.waitForFunction((id) => !document.querySelector(`tr[data-id="${id}"]`), testTx, { timeout: 20_000 });
    await page.waitForSelector('tr[data-id]');
    expect((await rows()).sort()).toEqual([...live].sort());
  });

  it('a test transaction’s page opens in live mode, switching to test data, instead of "not found"', async () => {
    await page.goto(`${stack.gatewayUrl}/app/transactions/${testTx}`);
    await page.waitForSelector('body[data-page]:not([data-page="transactions"])', { timeout: 20_000 });
    expect(await page.getAttribute('body', 'data-page')).not.toBe('not-found');
    expect(await page.textContent('h1')).not.toMatch(/not found/i);
    expect(await page.textContent('main')).toContain('Test Signer');
    expect(await page.isChecked('#mode-test')).toBe(true);
    expect(await page.isVisible('#test-banner')).toBe(true);
    await shot('02-test-transaction-1280.png');
    // An id of neither mode is still not found, and the switch stays as it was.
    await page.goto(`${stack.gatewayUrl}/app/transactions/999999999`);
    await at('not-found');
    expect(await page.isChecked('#mode-test')).toBe(true);
    await page.click('#mode-test');
    await at('transactions');
  });

  it('billing says the quota is spent and no credits are left, and offers credits first', async () => {
    await page.goto(`${stack.gatewayUrl}/app/billing`);
    await at('billing');
    expect(await page.textContent('#usage')).toMatch(/limit is reached and no credits are left/);
    expect(await page.textContent('#usage')).not.toMatch(/use credits/);
    expect(await page.textContent('#credits-text')).toMatch(/No credits left/);
    const first = await page.$eval('#checkout a', (a) => ({ id: a.id, cls: a.className }));
    expect(first).toEqual({ id: 'buy-credits', cls: 'button primary' });
    await shot('03-billing-no-credits-1280.png');
  });

  it('serves a favicon; the quick start fits at 1280 px with a key in it; headings get no focus frame', async () => {
    await page.goto(`${stack.gatewayUrl}/app/developer`);
    await at('developer');
    const icon = await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href);
    const res = await fetch(icon);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/svg/);

    // The heading has focus (for screen readers) and draws no outline.
    const heading = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { tag: el.tagName, outline: getComputedStyle(el).outlineStyle };
    });
    expect(heading).toEqual({ tag: 'H1', outline: 'none' });

    await page.fill('input[name="name"]', 'A key with a long name');
    await page.click('form button[type="submit"]');
    await page.waitForFunction(
      () => /sgn_[A-Za-z0-9]{20,}/.test(document.getElementById('quickstart')?.textContent ?? ''),
      null,
      {
        timeout: 20_000,
      },
    );
    // No sideways scrolling, and no line wrapped: one line box per non-empty line of the text.
    const fit = await page.$eval('#quickstart', (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      const lines = (el.textContent ?? '').split('\n').filter((l) => l.length > 0).length;
      return { scroll: el.scrollWidth, client: el.clientWidth, rendered: tops.size, lines };
    });
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    expect(fit.rendered).toBe(fit.lines);
    await page.$eval('#quickstart', (el) => el.scrollIntoView());
    await shot('04-quick-start-1280.png');
  });

  it('Account: the embedding origins — a bad one is shown beside the field and nothing changes; a good list is saved', async () => {
    await page.goto(`${stack.gatewayUrl}/app/account`);
    await at('account');
    const box = page.locator('#embed-origins textarea[name="origins"]');
    expect(await box.inputValue()).toBe('');
    await box.fill('https://app.example.com\nhttp://app.example.org');
    await page.click('#embed-origins button[type=submit]');
    await expect.poll(() => page.locator('#embed-origins .field-error').textContent(), { timeout: 10_000 }).toMatch(/https/);
    const origins = async () =>
      (await send(stack.gatewayUrl, 'GET', '/api/admin/account/embed-origins', { token: acct.token })).body.origins;
    expect(await origins()).toEqual([]);
    await box.fill('https://app.example.com\n\nhttp://127.0.0.1:5173\n');
    await page.click('#embed-origins button[type=submit]');
    await expect.poll(() => page.textContent('#embed-origins .ok'), { timeout: 10_000 }).toMatch(/2 origins may frame/);
    expect(await origins()).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    await page.locator('#embed-origins').scrollIntoViewIfNeeded();
    await shot('05-embed-origins-1280.png');
    expect(errors).toEqual([]);
  });
});
