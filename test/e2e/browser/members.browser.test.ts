/// <reference lib="dom" />
/**
 * The member invitation flow in headless Chromium against the real gateway, identity, billing and
 * transaction services and Mailpit (issue 34 item 1): the owner invites a viewer from the Members
 * page; the mail's link opens the join page, where the invitee names themselves and chooses a
 * password; they land signed in on the organisation's transactions, see the owner's transaction,
 * and the Members page shows them as viewer without the invite form (their role's limits).
 * Screenshots go to test-artifacts/members/.
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
import { invitationCode } from '../../support/members.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/members');
const suffix = randomBytes(3).toString('hex');

describe('inviting a member from the dashboard', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let owner: Account;
  let txId: number;
  const work = mkdtempSync(join(tmpdir(), 'signet-members-'));
  const errors: string[] = [];
  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
  const shot = (file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'MBRW',
        BUCKET_DOCUMENTS: `mbrw-docs-${suffix}`,
        BUCKET_REFERENCES: `mbrw-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    owner = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'team-owner', orgName: 'Team Ltd' });
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: owner.apiKey,
      parts: [
        { name: 'signer_name', value: 'Owner Signer' },
        { name: 'signer_email', value: `s-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    txId = r.body.id as number;
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${stack.gatewayUrl}/app/login`);
    await page.evaluate((t) => localStorage.setItem('signet.session', t), owner.token);
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('invite → mail → join → the member sees the organisation’s transactions within a viewer’s limits', async () => {
    const email = `viewer-${suffix}@example.com`;
    await page.goto(`${stack.gatewayUrl}/app/members`);
    await at('members');
    await page.fill('#invite input[name="email"]', email);
    await page.selectOption('#invite select[name="role"]', 'viewer');
    await page.click('#invite button[type="submit"]');
    await page.waitForSelector(`[data-invitation="${email}"]`, { timeout: 20_000 });
    await shot('01-invited-1280.png');

    const code = await invitationCode(email);
    // The invitee's browser: no session of the owner's.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${stack.gatewayUrl}/app/join#code=${code}`);
    await at('join');
    await page.fill('input[name="name"]', 'Vera Viewer');
    await page.fill('input[name="password"]', 'a long enough password');
    await shot('02-join-1280.png');
    await page.click('button[type="submit"]');
    await at('transactions');
    await page.waitForSelector(`tr[data-id="${txId}"]`, { timeout: 20_000 });
    expect(new URL(page.url()).hash).toBe('');
    await shot('03-member-transactions-1280.png');

    await page.goto(`${stack.gatewayUrl}/app/members`);
    await at('members');
    expect(await page.textContent('main')).toContain('You are viewer of Team Ltd');
    expect(await page.$('#invite')).toBeNull();
    expect(await page.$(`[data-member="${email}"]`)).not.toBeNull();
    await shot('04-member-members-1280.png');
    // The same link does not work twice.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${stack.gatewayUrl}/app/join#code=${code}`);
    await at('join');
    await page.fill('input[name="name"]', 'Someone Else');
    await page.fill('input[name="password"]', 'a long enough password');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.form-error:not([hidden])', { timeout: 20_000 });
    expect(await page.textContent('.form-error:not([hidden])')).toMatch(/invalid, used or expired/);
    expect(errors).toEqual([]);
  }, 120_000);
});
