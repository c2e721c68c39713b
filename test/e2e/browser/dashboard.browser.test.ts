/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The sender's dashboard in Debian's Chromium (playwright-core, headless) against the real gateway,
 * identity, billing and transaction services: sign up with the code from Mailpit → two-factor on
 * (TOTP computed here with otplib from the secret the page shows) → log out → log in with the TOTP
 * step → create a transaction (picker + drag and drop) → find it in the list → open it → resend →
 * cancel → an API key used with fetch from the test → revoked → CSV export → billing → the 402 →
 * change password, two-factor off, password reset by code. On every page: axe-core (labels, names,
 * WCAG A/AA rules) and a keyboard walk that must reach every control with Tab. Screenshots of each
 * page at 360 px and 1280 px go to test-artifacts/dashboard/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { authenticator } from 'otplib';
import { Webhook } from 'standardwebhooks';
import { eventually, startServices } from '../../harness/services.js';
import { makePng, tinyPdf } from '../../fixtures/ceremony-media.js';
import { codeFromMail, mailsTo } from '../../support/identity-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/dashboard');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `dash-docs-${suffix}`, BUCKET_REFERENCES: `dash-refs-${suffix}` };
const CHECKOUT = {
  CHECKOUT_URL_PRO: 'https://pay.example.com/checkout/pro',
  CHECKOUT_URL_FIRM: 'https://pay.example.com/checkout/firm',
  CHECKOUT_URL_CREDITS: 'https://pay.example.com/checkout/credits',
};

/** TOTP codes are single use per 30 s step: each code is for a step later than the last one used. */
let lastStep = 0;
const totpAt = (secret: string, step: number) => authenticator.clone({ epoch: step * 30_000 + 1_000 }).generate(secret);
async function nextTotp(secret: string): Promise<string> {
  const step = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
  // The server accepts ±1 step; past that, wait for the clock.
  while (step > Math.floor(Date.now() / 30_000) + 1) await new Promise((r) => setTimeout(r, 1000));
  lastStep = step;
  return totpAt(secret, step);
}

describe('the sender’s dashboard in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  const work = mkdtempSync(join(tmpdir(), 'signet-dashboard-'));
  const external: string[] = [];
  const errors: string[] = [];
  const email = `sender-${suffix}@example.com`;
  const password = 'correct horse battery';
  const signerEmail = `signer-${suffix}@example.com`;
  const extraEmail = `second-${suffix}@example.com`;
  const pdf = Buffer.concat([tinyPdf(`dashboard ${suffix}`), Buffer.alloc(2 * 1024 * 1024, 0x20)]); // big enough for upload progress
  let face: Buffer;
  let secret = '';

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    face = makePng(work);
    writeFileSync(join(work, 'Employment contract.pdf'), pdf);
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        ...BUCKETS,
        ...CHECKOUT,
        REFERENCE_PREFIX: 'DASH',
        PRODUCT_CATALOG: JSON.stringify({ prod_pro: { plan: 'pro' }, prod_credits10: { credits: 10 } }),
      },
    });
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith(stack.gatewayUrl) && !u.startsWith('blob:') && !u.startsWith('data:')) external.push(u);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused/.test(m.text())) errors.push(m.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
  /**
   * The next GET /api/transactions whose query has these values (null: present with any value).
   * Call it before the action, await it after.
   */
  const listRequest = (want: Record<string, string | null>) =>
    page.waitForRequest(
      (r) => {
        const u = new URL(r.url());
        return (
          r.method() === 'GET' &&
          u.pathname === '/api/transactions' &&
          Object.entries(want).every(([k, v]) => (v === null ? u.searchParams.has(k) : u.searchParams.get(k) === v))
        );
      },
      { timeout: 10_000 },
    );

  /** The page at 1280 px and at 360 px. */
  async function shots(name: string) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: join(ARTIFACTS, `${name}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-360.png`), fullPage: true });
    // Nothing overflows sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  /** axe-core over the page (WCAG 2 A/AA and best practice), injected without touching the page's CSP. */
  async function axeViolations() {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
    return (await page.evaluate(async () => {
      const res = await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return (res as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }).violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    })) as { id: string; impact: string; targets: string[] }[];
  }
  async function axe(name: string) {
    expect(await axeViolations(), `axe violations on ${name}`).toEqual([]);
  }

  /** Tab from the top of the page: every visible, enabled control must receive focus. */
  async function unreachable(): Promise<string[]> {
    const total = await page.evaluate(() => {
      const sel = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
      let n = 0;
      for (const el of document.querySelectorAll('[data-kb]')) el.removeAttribute('data-kb');
      // A modal dialog makes the rest of the page inert: only its controls take focus.
      const scope = document.querySelector('dialog[open]') ?? document;
      for (const el of scope.querySelectorAll<HTMLElement>(sel)) {
        el.removeAttribute('data-kb');
        const visible =
          !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) && getComputedStyle(el).visibility !== 'hidden';
        if (!visible || (el as HTMLButtonElement).disabled || el.closest('[hidden]') || el.classList.contains('skip')) continue;
        el.setAttribute('data-kb', String(n++));
      }
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
      return n;
    });
    const seen = new Set<string>();
    for (let i = 0; i < total + 8; i++) {
      await page.keyboard.press('Tab');
      const k = await page.evaluate(() => document.activeElement?.getAttribute('data-kb') ?? null);
      if (k !== null) seen.add(k);
    }
    return page.evaluate(
      (s) =>
        [...document.querySelectorAll('[data-kb]')]
          .filter((e) => !s.includes(e.getAttribute('data-kb')!))
          .map((e) => e.outerHTML.slice(0, 120)),
      [...seen],
    );
  }
  async function keyboard(name: string) {
    expect(await unreachable(), `controls not reachable by Tab on ${name}`).toEqual([]);
  }

  const check = async (name: string) => {
    await axe(name);
    await keyboard(name);
    await shots(name);
  };

  it('walks sign-up, two-factor, login, a transaction’s life, API keys, export and billing', async () => {
    // Sign up: register → emailed code → organisation.
    await page.goto(`${stack.gatewayUrl}/`);
    await at('login');
    // The checks can fail: an unlabelled field and a button kept out of the Tab order are caught.
    await page.evaluate(() => {
      const bad = document.createElement('div');
      bad.id = 'bad';
      bad.innerHTML = '<input type="text"><button type="button" tabindex="-1">Hidden from Tab</button>';
      document.querySelector('main')!.append(bad);
    });
    expect((await axeViolations()).map((v) => v.id)).toContain('label');
    expect(await unreachable()).toEqual([expect.stringContaining('Hidden from Tab')]);
    await page.evaluate(() => document.getElementById('bad')!.remove());
    await check('01-login');
    await page.click('text=Create an account');
    await at('signup');
    await check('02-signup');
    await page.getByLabel('Your name').fill('Grace Sender');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.click('button[type=submit]');
    // The API's 400 appears beside the password field.
    await expect
      .poll(() => page.locator('[data-field=password] .field-error').textContent())
      .toMatch(/password: must be at least 10/);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Password').fill(password);
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-step=code]');
    await check('03-signup-code');
    await page.getByLabel('Verification code').fill(await codeFromMail(email));
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-step=org]');
    await check('04-signup-org');
    await page.getByLabel('Organisation name').fill('Hopper & Partners');
    await page.keyboard.press('Enter');
    await at('transactions');
    expect(await page.textContent('#who-org')).toBe('Hopper & Partners');
    expect(await page.textContent('#list-info')).toMatch(/No transactions yet/);
    await check('05-transactions-empty');

    // Two-factor on: the secret shown on the page feeds the authenticator (otplib).
    await page.click('a[data-nav=account]');
    await at('account');
    await page.click('#twofa-setup');
    await page.waitForSelector('#twofa-secret');
    expect(await page.getAttribute('img.qr', 'src')).toMatch(/^data:image\/png;base64,/);
    await check('06-account-2fa-setup');
    secret = (await page.textContent('#twofa-secret'))!.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // A wrong code: the API's refusal appears beside the form, two-factor stays off.
    const now = Math.floor(Date.now() / 30_000);
    const valid = new Set([now - 1, now, now + 1].map((st) => totpAt(secret, st)));
    let wrong = 0;
    while (valid.has(String(wrong).padStart(6, '0'))) wrong++;
    await page.getByLabel('Code from the app').fill(String(wrong).padStart(6, '0'));
    await page.click('#twofa button[type=submit]');
    await expect.poll(() => page.locator('#twofa .field-error:not([hidden]), #twofa .form-error:not([hidden])').count()).toBe(1);
    await page.getByLabel('Code from the app').fill(await nextTotp(secret));
    await page.click('#twofa button[type=submit]');
    await page.waitForSelector('[data-twofa=on]');
    await check('07-account-2fa-on');

    // Log out, log in with the TOTP step.
    await page.click('#logout');
    await at('login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-step=mfa]');
    await check('08-login-mfa');
    await page.getByLabel('Authentication code').fill(await nextTotp(secret));
    await page.keyboard.press('Enter');
    await at('transactions');

    // Create: the PDF by the picker, the face photo by drag and drop, one more signer.
    await page.click('#new-tx');
    await at('new');
    await page.getByLabel('Full legal name').fill('Ada Lovelace');
    await page.getByLabel('Email', { exact: true }).fill(signerEmail);
    await page.click('#add-signer');
    await page.getByLabel('Additional signer 1 email').fill(extraEmail);
    await page.getByLabel('Attestation').selectOption('approval');
    await page.getByLabel('Document (PDF)').setInputFiles(join(work, 'Employment contract.pdf'));
    await page.evaluate(
      ({ bytes }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'ada.png', { type: 'image/png' }));
        const zone = document.querySelector('[data-field=reference]')!;
        for (const type of ['dragover', 'drop'])
          zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { bytes: [...face] },
    );
    await page.waitForSelector('[data-field=reference] img.thumb');
    expect(await page.textContent('[data-field=document] .file-meta')).toMatch(/Employment contract\.pdf · 2\.0 MB/);
    expect(await page.textContent('[data-field=reference] .file-meta')).toMatch(/ada\.png/);
    await check('09-new-transaction');
    // Watch the progress bar while the upload runs (the app routes in place: the window stays).
    await page.evaluate(() => {
      const w = window as unknown as { bar: number[] };
      w.bar = [];
      const p = document.getElementById('upload-progress') as HTMLProgressElement;
      const tick = () => {
        if (p.isConnected) {
          w.bar.push(p.value);
          requestAnimationFrame(tick);
        }
      };
      requestAnimationFrame(tick);
    });
    await page.click('#create-form button[type=submit]');
    await at('detail');
    const bar = await page.evaluate(() => (window as unknown as { bar: number[] }).bar);
    expect(Math.max(...bar)).toBe(100);
    const reference = (await page.textContent('h1'))!;
    expect(reference).toMatch(/^DASH-TX-\d{8}$/);
    expect(await page.textContent('#tx-status')).toBe('Sent');
    expect(await page.locator('#signers tbody tr').count()).toBe(2);
    expect(await page.textContent('#signers')).toContain(extraEmail);
    expect(await page.locator('#timeline li').count()).toBeGreaterThan(0);
    await check('10-detail');

    // The list: newest first; the search and the status filter are answered by the server (each
    // request carries them) and kept in the page URL, so a reload or Back shows the same list.
    await page.click('a[data-nav=transactions]');
    await at('transactions');
    await page.waitForSelector(`#tx-table tbody tr >> text=${reference}`);
    await check('11-transactions');
    const search = page.getByLabel('Search by signer or reference');
    const rows = () => page.locator('#tx-table tbody tr').count();
    const info = () => page.textContent('#list-info');
    let req = listRequest({ q: 'nobody-matches-this' });
    await search.fill('nobody-matches-this');
    await req;
    await expect.poll(info).toBe('No transaction matches.');
    expect(await rows()).toBe(0);
    req = listRequest({ q: 'LOVELACE' });
    await search.fill('LOVELACE');
    await req;
    await expect.poll(info).toBe('Showing 1 matching transaction.');
    expect(await page.locator('#tx-table tbody th').textContent()).toBe(reference);
    expect(new URL(page.url()).searchParams.get('q')).toBe('LOVELACE');
    req = listRequest({ q: reference.toLowerCase() });
    await search.fill(reference.toLowerCase());
    await req;
    await expect.poll(rows).toBe(1);
    req = listRequest({ q: reference.toLowerCase(), status: 'cancelled' });
    await page.getByLabel('Status').selectOption('cancelled');
    await req;
    await expect.poll(info).toBe('No transaction matches.');
    req = listRequest({ q: reference.toLowerCase(), status: 'created' });
    await page.getByLabel('Status').selectOption('created');
    await req;
    await expect.poll(info).toBe('Showing 1 matching transaction.');
    expect(new URL(page.url()).searchParams.get('status')).toBe('created');
    await page.reload();
    await at('transactions');
    await expect.poll(info).toBe('Showing 1 matching transaction.');
    expect(await search.inputValue()).toBe(reference.toLowerCase());
    expect(await page.getByLabel('Status').inputValue()).toBe('created');
    await page.goBack();
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('cancelled');
    await expect.poll(info).toBe('No transaction matches.');
    await page.goForward();
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('created');
    await expect.poll(rows).toBe(1);

    // Open it; resend (keyboard, with confirmation); cancel.
    await page.click(`#tx-table a >> text=${reference}`);
    await at('detail');
    const before = (await mailsTo(signerEmail)).length;
    await page.focus('#resend');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog[open]');
    await check('12-resend-confirm');
    await page.focus('dialog [data-confirm=yes]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#action-ok')).toMatch(/sent again/);
    await eventually(async () => (await mailsTo(signerEmail)).length > before);
    await page.click('#cancel');
    await page.waitForSelector('dialog[open]');
    await page.click('dialog [data-confirm=yes]');
    await expect.poll(() => page.textContent('#tx-status')).toBe('Cancelled');
    expect(await page.isHidden('#actions')).toBe(true);
    expect(await page.textContent('#timeline')).toMatch(/cancel/i);
    await check('13-detail-cancelled');

    // Developer: create a key, use it from here, revoke it.
    await page.click('a[data-nav=developer]');
    await at('developer');
    await check('14-developer');
    await page.getByLabel('Key name').fill('Test integration');
    await page.click('button:text("Create key")');
    await page.waitForSelector('#new-key');
    const key = (await page.textContent('#new-key'))!;
    expect(await page.textContent('#key-created')).toMatch(/shown only this once/);
    expect(await page.textContent('#quickstart')).toContain(key);
    const me = await fetch(`${stack.gatewayUrl}/api/auth/me`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(email);
    const list = await fetch(`${stack.gatewayUrl}/api/transactions`, { headers: { 'x-api-key': key } });
    expect(((await list.json()) as { reference: string }[]).map((t) => t.reference)).toContain(reference);
    const row = page.locator('#keys tbody tr', { hasText: 'Test integration' });
    expect(await row.locator('code').textContent()).toBe(key.slice(0, 12));
    await check('15-developer-key-created');
    await row.locator('button[data-revoke]').click();
    await page.waitForSelector('dialog[open]');
    await page.click('dialog [data-confirm=yes]');
    await expect.poll(() => page.locator('#keys tbody tr', { hasText: 'Test integration' }).count()).toBe(0);
    const after = await fetch(`${stack.gatewayUrl}/api/auth/me`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(after.status).toBe(401);

    // Export CSV.
    await page.click('a[data-nav=transactions]');
    await at('transactions');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    expect(dl.suggestedFilename()).toBe('transactions.csv');
    const csv = readFileSync((await dl.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('reference,signer,email,status,created,verified');
    expect(csv).toContain(`${reference},Ada Lovelace,${signerEmail},cancelled,`);

    // Billing: plan, usage, checkout links from configuration.
    await page.click('a[data-nav=billing]');
    await at('billing');
    expect(await page.textContent('#plan')).toBe('Free');
    const usage = (await page.textContent('#usage'))!;
    const [, used, quota] = /(\d+) of (\d+) used/.exec(usage)!.map(Number) as [number, number, number];
    expect(used).toBeGreaterThanOrEqual(1);
    expect(await page.getAttribute('a:text("Upgrade to Pro")', 'href')).toBe(CHECKOUT.CHECKOUT_URL_PRO);
    expect(await page.getAttribute('a:text("Buy credits")', 'href')).toBe(CHECKOUT.CHECKOUT_URL_CREDITS);
    await check('16-billing');

    // Spend the rest of the quota through the API; the page shows the 402 as the limit.
    const token = await page.evaluate(() => localStorage.getItem('signet.session'));
    for (let i = used; i < quota; i++) {
      const fd = new FormData();
      fd.append('signer_name', `Filler ${i}`);
      fd.append('signer_email', `filler-${i}-${suffix}@example.com`);
      fd.append('document', new Blob([new Uint8Array(tinyPdf(`filler ${i}`))], { type: 'application/pdf' }), 'f.pdf');
      fd.append('reference', new Blob([new Uint8Array(face)], { type: 'image/png' }), 'f.png');
      const r = await fetch(`${stack.gatewayUrl}/api/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: fd,
      });
      expect(r.status, await r.clone().text()).toBe(201);
    }
    await page.click('a[data-nav=transactions]');
    await at('transactions');
    await page.click('#new-tx');
    await at('new');
    await page.getByLabel('Full legal name').fill('Over Quota');
    await page.getByLabel('Email', { exact: true }).fill(`over-${suffix}@example.com`);
    await page.getByLabel('Document (PDF)').setInputFiles(join(work, 'Employment contract.pdf'));
    await page
      .getByLabel('Face photo of the primary signer')
      .setInputFiles({ name: 'f.png', mimeType: 'image/png', buffer: face });
    await page.waitForSelector('[data-field=reference] img.thumb');
    await page.click('#create-form button[type=submit]');
    await page.waitForSelector('#quota-reached:not([hidden])');
    expect(await page.textContent('#quota-reached')).toMatch(/Monthly limit reached — upgrade or buy credits/);
    await check('17-new-transaction-402');

    expect(errors).toEqual([]);
    expect(external).toEqual([]);
  }, 240_000);

  it('changes the password, turns two-factor off, and resets the password with a mailed code', async () => {
    await page.click('a[data-nav=account]');
    await at('account');
    // Stay signed in for 7 days: confirmed on the page, in the profile, and by the next login's JWT (at the end).
    expect(await page.getByLabel('Stay signed in for').inputValue()).toBe('24');
    await page.getByLabel('Stay signed in for').selectOption({ label: '7 days' });
    await page.click('#session-length button[type=submit]');
    await expect.poll(() => page.textContent('#session-length .ok')).toMatch(/stay signed in for 7 days/);
    const held = (await page.evaluate(() => localStorage.getItem('signet.session')))!;
    const me = await fetch(`${stack.gatewayUrl}/api/auth/me`, { method: 'POST', headers: { authorization: `Bearer ${held}` } });
    expect(((await me.json()) as { session_ttl_hours: number }).session_ttl_hours).toBe(168);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('an even better password');
    await page.click('button:text("Change password")');
    await expect
      // The wrong password is checked with the password hash: seconds on a loaded machine, not the poll's default 1 s.
      .poll(() => page.locator('form:has(#h-pw) .form-error, [data-field=current_password] .field-error').first().textContent(), {
        timeout: 15_000,
      })
      .toBeTruthy();
    await page.getByLabel('Current password').fill(password);
    await page.click('button:text("Change password")');
    await expect.poll(() => page.textContent('form:has(#h-pw) .ok'), { timeout: 15_000 }).toMatch(/Password changed/);
    // The session the page holds is the fresh one.
    await page.reload();
    await at('account');
    expect(await page.isVisible('[data-twofa=on]')).toBe(true);
    expect(await page.getByLabel('Stay signed in for').inputValue()).toBe('168');
    await check('18-account-2fa-on');

    // Two-factor off: password and a current code.
    await page.getByLabel('Password', { exact: true }).fill('an even better password');
    await page.getByLabel('Authentication code').fill(await nextTotp(secret));
    await page.click('button:text("Turn off two-factor")');
    await page.waitForSelector('[data-twofa=off]');

    // Forgot password: sign out, reset with the mailed code, sign in with the new password.
    await page.click('#logout');
    await at('login');
    await page.click('text=Forgot your password?');
    await at('reset');
    await page.getByLabel('Email').fill(email);
    const mails = (await mailsTo(email)).length;
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-step=code]');
    await check('19-reset');
    const code = await codeFromMail(email, mails + 1);
    await page.getByLabel('Reset code').fill(code);
    await page.getByLabel('New password', { exact: true }).fill('reset by the mailed code');
    await page.keyboard.press('Enter');
    await at('login');
    expect(await page.textContent('.notice')).toMatch(/password is changed/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('reset by the mailed code');
    await page.keyboard.press('Enter');
    await at('transactions');
    const jwt = (await page.evaluate(() => localStorage.getItem('signet.session')))!;
    const c = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(c.exp - c.iat).toBe(168 * 3600);
    expect(errors).toEqual([]);
  }, 120_000);

  it('pages the list with the API cursor, searches past the first page, and shows a paid plan past due with credits', async () => {
    const token = (await page.evaluate(() => localStorage.getItem('signet.session')))!;
    const me = (await (
      await fetch(`${stack.gatewayUrl}/api/auth/me`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      user_id: string;
    };
    // The payment provider's webhooks, signed as Standard Webhooks: Pro, then 10 credits.
    const wh = new Webhook(stack.secrets.WEBHOOK_SECRET);
    const customer = { customer_id: 'cus_dash', email, name: 'Grace Sender' };
    const deliver = async (type: string, data: Record<string, unknown>, at = new Date()) => {
      const body = JSON.stringify({ business_id: 'bus_test', type, timestamp: at.toISOString(), data });
      const id = `msg_${Math.random().toString(16).slice(2)}`;
      const res = await fetch(`${stack.gatewayUrl}/api/webhooks/dodo`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': wh.sign(id, at, body),
        },
        body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { result: string }).result).toBe('processed');
    };
    const subscription = (status: string) => ({
      payload_type: 'Subscription',
      subscription_id: 'sub_dash',
      customer,
      metadata: { user_id: me.user_id, plan: 'pro' },
      status,
      product_id: 'prod_pro',
      next_billing_date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      previous_billing_date: new Date().toISOString(),
      cancel_at_next_billing_date: false,
    });
    await deliver('subscription.active', subscription('active'));
    await deliver('payment.succeeded', {
      payload_type: 'Payment',
      payment_id: `pay_${suffix}`,
      customer,
      metadata: { user_id: me.user_id, plan: 'payg' },
      subscription_id: null,
      product_cart: [{ product_id: 'prod_credits10', quantity: 1 }],
      total_amount: 1000,
      currency: 'USD',
    });

    // 27 more transactions through the API (Pro's 25 a month, then credits): 30 in all.
    const refs: string[] = [];
    for (let i = 0; i < 27; i++) {
      const fd = new FormData();
      fd.append('signer_name', `Paged Signer ${String(i).padStart(2, '0')}`);
      fd.append('signer_email', `paged-${i}-${suffix}@example.com`);
      fd.append('document', new Blob([new Uint8Array(tinyPdf(`paged ${i}`))], { type: 'application/pdf' }), 'p.pdf');
      fd.append('reference', new Blob([new Uint8Array(face)], { type: 'image/png' }), 'p.png');
      const r = await fetch(`${stack.gatewayUrl}/api/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: fd,
      });
      expect(r.status, await r.clone().text()).toBe(201);
      refs.push(((await r.json()) as { reference: string }).reference);
    }
    await page.click('a[data-nav=transactions]');
    await at('transactions');
    await expect.poll(() => page.locator('#tx-table tbody tr').count()).toBe(25);
    // Newest first.
    expect(await page.locator('#tx-table tbody tr').first().locator('th').textContent()).toBe(refs[26]);
    expect(await page.isVisible('#load-more')).toBe(true);
    await page.click('#load-more');
    await expect.poll(() => page.locator('#tx-table tbody tr').count()).toBe(30);
    expect(await page.isHidden('#load-more')).toBe(true);
    await check('20-transactions-paged');
    // The server searches every row, beyond the pages loaded so far; a search that matches more
    // than a page pages on with the cursor, the request still carrying the search.
    await page.reload();
    await at('transactions');
    await expect.poll(() => page.locator('#tx-table tbody tr').count()).toBe(25);
    let req = listRequest({ q: 'ada lovelace' });
    await page.getByLabel('Search by signer or reference').fill('ada lovelace');
    await req;
    await expect.poll(() => page.textContent('#list-info')).toBe('Showing 1 matching transaction.');
    req = listRequest({ q: 'Paged Signer' });
    await page.getByLabel('Search by signer or reference').fill('Paged Signer');
    await req;
    await expect.poll(() => page.textContent('#list-info')).toBe('Showing 25+ matching transactions.');
    expect(await page.locator('#tx-table tbody tr').first().locator('th').textContent()).toBe(refs[26]);
    req = listRequest({ q: 'Paged Signer', cursor: null });
    await page.click('#load-more');
    expect(new URL((await req).url()).searchParams.get('cursor')).toBeTruthy();
    await expect.poll(() => page.textContent('#list-info')).toBe('Showing 27 matching transactions.');
    expect(await page.locator('#tx-table tbody tr').last().locator('th').textContent()).toBe(refs[0]);
    expect(await page.isHidden('#load-more')).toBe(true);
    await check('20-transactions-search');

    // The payment fails: past due, with the grace end date.
    await deliver('subscription.failed', subscription('failed'), new Date(Date.now() + 1000));
    await page.click('a[data-nav=billing]');
    await at('billing');
    expect(await page.textContent('#plan')).toBe('Pro');
    expect(await page.textContent('#usage')).toMatch(/^25 of 25 used/);
    expect(await page.textContent('#credits')).toBe('5');
    const notice = (await page.textContent('#past-due'))!;
    expect(notice).toMatch(/past due/);
    const account = (await (
      await fetch(`${stack.gatewayUrl}/api/admin/account`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      grace_ends_at: string;
    };
    expect(account.grace_ends_at).toBeTruthy();
    expect(notice).toContain(
      await page.evaluate((iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' }), account.grace_ends_at),
    );
    expect(await page.isVisible('a:text("Upgrade to Pro")')).toBe(false);
    expect(await page.getAttribute('a:text("Upgrade to Firm")', 'href')).toBe(CHECKOUT.CHECKOUT_URL_FIRM);
    await check('21-billing-past-due');
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
  }, 180_000);
});
