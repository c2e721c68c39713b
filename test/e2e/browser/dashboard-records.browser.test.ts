/// <reference lib="dom" />
/**
 * The dashboard's certificate downloads (issue 17) and the account's defaults for new transactions
 * (issues 18 and 21) in headless Chromium against the real gateway, identity, billing, transaction
 * and ledger (sealing with the harness's development PKI and local TSA):
 * - an issued transaction's card downloads the signed PDF and audit trail the API serves, shows
 *   "Sealing…" while the API answers 409 and downloads once it is sealed; the re-rendered
 *   certificate.pdf is not offered any more;
 * - a legal hold is placed and released from the detail; the transaction is deleted only once it
 *   has ended and is not held (the API's 409 otherwise, nothing changed);
 * - the account page shows the biometric retention, saves a new one (the API then says it), and a
 *   value over the operator's maximum shows the API's 400 beside the field and changes nothing.
 * The transaction is a test-mode one, completed without a ceremony (POST …/test/complete). A session does
 * not see test data, so the page's calls under /api/transactions go out with the test key instead of
 * the session (rewritten by the browser); the answers are the server's own but for the PDFs (see there).
 * The download of a live transaction's sealed PDF is in ceremony-verdict.browser.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { createAccount, type Account } from '../../harness/accounts.js';
import { eventually, infra, startServices } from '../../harness/services.js';
import { pngPhoto, tinyPdf } from '../../fixtures/documents.js';
import { send } from '../../support/http.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const suffix = randomBytes(3).toString('hex');

describe('the dashboard’s certificate downloads and new-transaction settings', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let acct: Account;
  let testKey: string;
  const work = mkdtempSync(join(tmpdir(), 'signet-dash-records-'));
  const errors: string[] = [];

  beforeAll(async () => {
    const pki = infra().DEV_PKI_DIR;
    if (!infra().TSA_URL || !pki)
      throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'DREC',
        BUCKET_DOCUMENTS: `drec-docs-${suffix}`,
        BUCKET_REFERENCES: `drec-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        BIOMETRIC_RETENTION_MAX_DAYS: '90',
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: infra().TSA_URL!,
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'records' });
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
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

  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
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

  it('downloads the sealed signed PDF and audit trail, saying "Sealing…" while the API answers 409', async () => {
    const pdf = tinyPdf(`records ${randomUUID()}`);
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: testKey,
      parts: [
        { name: 'signer_name', value: 'Grace Hopper' },
        { name: 'signer_email', value: `grace-${suffix}@example.com` },
        { name: 'document', data: pdf, filename: 'Contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { id, reference } = created.body as { id: number; reference: string };
    const complete = await send(stack.gatewayUrl, 'POST', `/api/transactions/${id}/test/complete`, {
      apiKey: testKey,
      json: { outcome: 'verified' },
    });
    expect(complete.status, complete.text).toBe(200);
    await eventually(
      async () =>
        (await send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { apiKey: testKey })).body.status === 'ledger_issued',
      30_000,
    );

    // The page's transaction calls go out with the test key (a session sees no test data). A PDF's
    // first answer is a 409, as while the ledger seals it. The ledger keeps no signed PDF for a
    // test-mode transaction completed without a ceremony (it answers 404), so after that the test
    // answers for it with a stand-in PDF; a PDF of the server's own passes through.
    const seen: string[] = [];
    const statuses: Record<string, number[]> = {};
    const served: Record<string, Buffer> = {};
    const transactionCalls = (u: URL) => u.pathname.startsWith('/api/transactions/');
    await page.route(transactionCalls, async (route) => {
      const req = route.request();
      const path = new URL(req.url()).pathname;
      seen.push(path);
      const headers: Record<string, string> = { ...req.headers(), 'x-api-key': testKey };
      delete headers.authorization;
      const file = /\/(signed|audit-trail)\.pdf$/.exec(path)?.[0];
      if (!file) return route.continue({ headers });
      const real = await route.fetch({ headers });
      const tries = (statuses[file] ??= []);
      tries.push(real.status());
      if (file === '/signed.pdf' && tries.length === 1)
        return route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'not sealed yet' }),
        });
      served[file] = real.status() === 200 ? await real.body() : tinyPdf(`stand-in ${file} ${suffix}`);
      return route.fulfill({ status: 200, contentType: 'application/pdf', body: served[file] });
    });
    await page.goto(`${stack.gatewayUrl}/app/transactions/${id}`);
    await at('detail');
    await page.waitForSelector('#certificate');
    expect(await page.$('#certificate-pdf'), 'the re-rendered certificate is not offered').toBeNull();
    // What the transaction proves (issue 30): the level and its sentence, for the whole and per signer.
    const proves = 'No ceremony took place: a test-mode transaction completed by its sender';
    expect(await page.textContent('#assurance')).toMatch(new RegExp(`^test${proves}`));
    expect(await page.textContent('#signers td[data-label="Assurance"]')).toMatch(new RegExp(`^test${proves}`));
    expect(await axe()).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      (async () => {
        await page.click('#signed-pdf');
        // The 409 shows the sealing state until a later try downloads.
        await page
          .locator('#signed-pdf', { hasText: 'Sealing…' })
          .waitFor({ timeout: 20_000 })
          .catch((e: Error) => {
            throw new Error(`${e.message}; answers: ${JSON.stringify(statuses)}; seen: ${seen.join(' ')}`);
          });
        expect(await page.getAttribute('#signed-pdf', 'aria-busy')).toBe('true');
        expect(await page.textContent('#pdf-note')).toContain('Sealing…');
        expect(await axe()).toEqual([]);
      })(),
    ]);
    expect(download.suggestedFilename()).toBe(`${reference}-signed.pdf`);
    expect(readFileSync(await download.path()).equals(served['/signed.pdf']!)).toBe(true);
    await page.locator('#signed-pdf', { hasText: 'Signed PDF' }).waitFor();
    expect(await page.isHidden('#pdf-note')).toBe(true);
    expect(await page.isEnabled('#signed-pdf')).toBe(true);

    const [auditDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.click('#audit-trail-pdf'),
    ]);
    expect(auditDownload.suggestedFilename()).toBe(`${reference}-audit-trail.pdf`);
    expect(readFileSync(await auditDownload.path()).equals(served['/audit-trail.pdf']!)).toBe(true);
    expect(seen.filter((p) => p.endsWith('/signed.pdf')).length).toBe(2);
    expect(seen.some((p) => p.endsWith('/certificate.pdf'))).toBe(false);
    await page.unroute(transactionCalls);
    expect(errors).toEqual([]);
  }, 180_000);

  it('shows and changes the biometric retention of new transactions; an out-of-range value changes nothing', async () => {
    const me = async () => (await send(stack.gatewayUrl, 'POST', '/api/auth/me', { token: acct.token })).body;
    const before = (await me()).biometric_retention_days as number;
    await page.goto(`${stack.gatewayUrl}/app/account`);
    await at('account');
    const input = page.locator('#transaction-settings input[name="biometric_retention_days"]');
    expect(await input.inputValue()).toBe(String(before));
    expect(await axe()).toEqual([]);

    await input.fill('7');
    await page.fill('#transaction-settings input[name="expiry_days"]', '14');
    await page.fill('#transaction-settings input[name="reminder_max"]', '0');
    await page.click('#transaction-settings button[type="submit"]');
    await page.locator('#transaction-settings .ok', { hasText: 'kept 7 days' }).waitFor();
    expect(await page.textContent('#transaction-settings .ok')).toContain('no automatic reminders');
    expect(await me()).toMatchObject({ biometric_retention_days: 7, expiry_days: 14, reminder_max: 0 });

    // Over the operator's maximum (90 here): the API's 400 names it beside the field; nothing changes.
    await input.fill('91');
    await page.click('#transaction-settings button[type="submit"]');
    const err = page.locator('#transaction-settings [data-field="biometric_retention_days"] .field-error');
    await err.waitFor();
    expect(await err.textContent()).toMatch(/biometric_retention_days.*90/);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await me()).toMatchObject({ biometric_retention_days: 7, expiry_days: 14, reminder_max: 0 });

    // Not a whole number: refused on the page, no request.
    let patched = 0;
    page.on('request', (r) => r.method() === 'PATCH' && patched++);
    await input.fill('');
    await page.click('#transaction-settings button[type="submit"]');
    await page.locator('#transaction-settings .field-error', { hasText: 'whole number of days' }).waitFor();
    expect(patched).toBe(0);

    // A reload shows what is saved.
    await page.reload();
    await at('account');
    expect(await input.inputValue()).toBe('7');
    expect(await page.inputValue('#transaction-settings input[name="expiry_days"]')).toBe('14');
    expect(errors).toEqual([]);
  }, 120_000);

  it('places and releases a legal hold, and deletes the transaction only once it has ended and is not held', async () => {
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signer_name', value: 'Ada Byron' },
        { name: 'signer_email', value: `ada-${suffix}@example.com` },
        { name: 'document', data: tinyPdf(`hold ${randomUUID()}`), filename: 'Deed.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body as { id: number };
    const detail = () => send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { apiKey: acct.apiKey });

    await page.goto(`${stack.gatewayUrl}/app/transactions/${id}`);
    await at('detail');
    // Pending: it cannot be deleted yet.
    expect(await page.isDisabled('#delete-tx')).toBe(true);
    expect(await page.textContent('#delete-hint')).toContain('once it has ended');

    await page.fill('#legal-hold-form input[name="reason"]', 'Dispute 2026-17');
    await page.click('#place-hold');
    await page.locator('#legal-hold', { hasText: 'Dispute 2026-17' }).waitFor();
    expect((await detail()).body.legal_hold).toMatchObject({ reason: 'Dispute 2026-17' });
    expect(await axe()).toEqual([]);

    // Ended but held: the page offers no delete, and the API refuses it with nothing changed.
    expect((await send(stack.gatewayUrl, 'POST', `/api/transactions/${id}/cancel`, { apiKey: acct.apiKey })).status).toBe(200);
    await page.reload();
    await at('detail');
    expect(await page.isDisabled('#delete-tx')).toBe(true);
    expect(await page.textContent('#delete-hint')).toContain('Release the legal hold');
    const refused = await send(stack.gatewayUrl, 'DELETE', `/api/transactions/${id}`, { apiKey: acct.apiKey });
    expect(refused.status).toBe(409);
    expect((await detail()).status).toBe(200);

    await page.click('#release-hold');
    await page.locator('#place-hold').waitFor();
    expect((await detail()).body.legal_hold).toBeNull();
    expect(await page.isEnabled('#delete-tx')).toBe(true);

    // Keeping it in the dialog changes nothing; confirming deletes it.
    await page.click('#delete-tx');
    await page.click('dialog [data-confirm="no"]');
    expect((await detail()).status).toBe(200);
    await page.click('#delete-tx');
    await page.click('dialog [data-confirm="yes"]');
    await at('transactions');
    expect(await page.textContent('body')).toContain('is deleted');
    expect((await detail()).status).toBe(404);
    expect(errors).toEqual([]);
  }, 120_000);
});
