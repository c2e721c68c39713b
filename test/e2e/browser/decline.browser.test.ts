/**
 * Declining on the signing page in Debian's Chromium (playwright-core, headless): a real signing link
 * from a transaction created through the API is opened, the signer chooses Decline, can go back, then
 * confirms with a reason; the page says it is over, the transaction reads `declined` with the reason
 * in its events, and reopening the link shows why it no longer works. Screenshots go to
 * test-artifacts/decline/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { Account } from '../../harness/accounts.js';
import { startServices } from '../../harness/services.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../../support/ceremony-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/decline');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `brw-docs-${suffix}`, BUCKET_REFERENCES: `brw-refs-${suffix}` };

describe('declining on the signing page in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  let context: BrowserContext;
  const work = mkdtempSync(join(tmpdir(), 'signet-browser-'));

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    context = await launchChromium(work, { viewport: { width: 360, height: 740 } });
  });
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const screen = (page: Page, name: string) => page.waitForSelector(`body[data-current="${name}"]`, { timeout: 20_000 });
  const shot = (page: Page, file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  it('asks for confirmation, declines with a reason, and the link then says it was declined', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(tx.sign_url);
    await screen(page, 'consent');

    // Decline asks first; going back changes nothing.
    await page.click('#c-decline');
    await screen(page, 'decline');
    await shot(page, '01-confirm-360.png');
    await page.click('#d-back');
    await screen(page, 'consent');
    const detail = async () => (await send(stack.gatewayUrl, 'GET', `/api/transactions/${tx.id}`, { apiKey: acct.apiKey })).body;
    expect((await detail()).status).toBe('created');

    await page.click('#c-decline');
    await screen(page, 'decline');
    // The field holds at most 500 characters.
    await page.fill('#d-reason', 'x'.repeat(600));
    expect((await page.inputValue('#d-reason')).length).toBe(500);
    await page.fill('#d-reason', 'I never applied for this job');
    await page.click('#d-confirm');
    await screen(page, 'done');
    expect(await page.textContent('#done-text')).toMatch(/declined/);
    await shot(page, '02-declined-360.png');

    const d = await detail();
    expect(d.status).toBe('declined');
    expect(d.events.find((e: { type: string }) => e.type === 'signer_declined').detail).toContain('I never applied for this job');

    await page.reload();
    await screen(page, 'error');
    expect(await page.textContent('#error-text')).toMatch(/declined/);
    await shot(page, '03-link-declined-360.png');
    expect(errors).toEqual([]);
  });
});
