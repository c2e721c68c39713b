/**
 * The signing page's languages in Debian's Chromium (issue 34 item 5): a signer the sender set to
 * Arabic gets the page right to left at 390 px (dir=rtl on the document, the header mirrored: the
 * brand on the right), in Arabic, saying that the spoken words stay English; a signer with no
 * language chosen whose browser prefers German gets the page in German (navigator.languages).
 * Screenshots go to test-artifacts/languages/.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { Account } from '../../harness/accounts.js';
import { startServices } from '../../harness/services.js';
import { send, senderAccount } from '../../support/ceremony-helpers.js';
import { tinyPdf } from '../../fixtures/ceremony-media.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/languages');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `lang-docs-${suffix}`, BUCKET_REFERENCES: `lang-refs-${suffix}` };

describe('the signing page in the signer’s language, in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  const contexts: BrowserContext[] = [];
  const work = mkdtempSync(join(tmpdir(), 'signet-browser-'));

  /** A one-party transaction (liveness only, no photo), the party's locale as given; its signing URL. */
  const signUrl = async (locale?: string) => {
    const party = {
      name: 'Test Signer',
      email: `lang-${randomBytes(4).toString('hex')}@example.com`,
      verification: 'liveness_only',
    };
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: { 'x-api-key': acct.apiKey },
      parts: [
        { name: 'signers', value: JSON.stringify([{ ...party, ...(locale ? { locale } : {}) }]) },
        { name: 'document', filename: 'contract.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
      ],
    });
    if (r.status !== 201) throw new Error(`create → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.sign_url as string;
  };
  const open = async (url: string, opts: { locale?: string; width: number }) => {
    const ctx = await launchChromium(join(work, `p${contexts.length}`), {
      viewport: { width: opts.width, height: 844 },
      locale: opts.locale,
    });
    contexts.push(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    return { page, errors };
  };
  const shot = (page: Page, file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    // The web build and the stack take minutes on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('Arabic, chosen by the sender: right to left at 390 px, mirrored, in Arabic, the spoken words English', async () => {
    // The browser prefers English: the sender's choice wins.
    const { page, errors } = await open(await signUrl('ar'), { locale: 'en-US', width: 390 });
    expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual(['rtl', 'ar']);
    expect(await page.textContent('#h-consent')).toBe('المراجعة والموافقة');
    expect(await page.textContent('#c-submit')).toBe('أوافق وأتابع');
    expect(await page.textContent('#spoken-english')).toContain('الإنجليزية');
    expect(await page.title()).toBe('توقيع مستند · Signet');
    // Mirrored: the brand starts the header on the right, the document chip is to its left.
    const brand = (await page.locator('.bar .brand').boundingBox())!;
    const chip = (await page.locator('#doc-chip').boundingBox())!;
    expect(brand.x).toBeGreaterThan(chip.x);
    expect(brand.x + brand.width).toBeGreaterThan(390 - 40);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#c-attest')!).borderRightWidth)).toBe('4px');
    await shot(page, 'ar-consent-390.png');
    expect(errors).toEqual([]);
  });

  it('no language chosen: the browser’s (German) decides, left to right', async () => {
    const { page, errors } = await open(await signUrl(), { locale: 'de-DE', width: 390 });
    expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual(['ltr', 'de']);
    expect(await page.textContent('#h-consent')).toBe('Prüfen und zustimmen');
    expect(await page.textContent('#c-decline')).toBe('Ablehnen');
    expect(await page.textContent('#spoken-english')).toContain('nur Englisch');
    await shot(page, 'de-consent-390.png');
    expect(errors).toEqual([]);
  });

  it('neither chosen nor a supported browser language: English', async () => {
    const { page } = await open(await signUrl(), { locale: 'it-IT', width: 390 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.textContent('#h-consent')).toBe('Review and consent');
  });
});
