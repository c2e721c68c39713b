/// <reference lib="dom" />
/**
 * The dashboard's Security and Audit log views and the sign-in page's passkey options (issue 34
 * items 3 and 8) in headless Chromium against the real gateway, identity, billing and transaction
 * services, with Chromium's virtual authenticator (DevTools protocol, as webauthn.browser.test.ts):
 * a passkey added (and renamed) in the Security view signs in alone; recovery codes generated there
 * replace the second step once (the same code is refused the second time) and the passkey serves as
 * that step;
 * the audit log lists those sign-ins and their failure, filters by action and exports CSV; a viewer
 * sees no audit log. The gateway is addressed as `localhost`, a secure context for WebAuthn.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { startServices } from '../../harness/services.js';
import { client, codeFromMail, uniqueEmail, uniqueIp } from '../../support/identity-helpers.js';
import { addMember } from '../../support/members.js';
import { send } from '../../support/http.js';
import { softwareAuthenticator } from '../../support/software-authenticator.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const PASSWORD = 'correct horse battery staple';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('passkeys, recovery codes and the audit log in the dashboard', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let email: string;
  let ownerToken: string;
  let authenticatorId: string;
  let codes: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'signet-security-'));
  const errors: string[] = [];
  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
  const signedInAt = async (name: string) => {
    await at(name);
    expect(await page.evaluate(() => localStorage.getItem('signet.session'))).toBeTruthy();
  };
  /** axe-core over the page (WCAG 2 A/AA and best practice), as dashboard.browser.test.ts runs it. */
  const axe = async (name: string) => {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const res = await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return (res as { violations: { id: string; nodes: { target: string[] }[] }[] }).violations.map((v) => ({
        id: v.id,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    });
    expect(violations, `axe violations on ${name}`).toEqual([]);
  };
  /** Nothing overflows sideways on a phone (360 px), then back to 1280 px. */
  const fitsPhone = async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(width).toBeLessThanOrEqual(360);
  };
  const passwordStep = async () => {
    await page.click('#logout');
    await at('login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-step=mfa]', { timeout: 20_000 });
  };

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], { host: 'localhost' });
    // An account with a known password, through the real sign-up routes.
    const api = client(stack.gatewayUrl);
    const ip = uniqueIp();
    email = uniqueEmail('security');
    expect(
      (await api('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: 'Ada Lovelace' }, ip })).status,
    ).toBe(202);
    const ver = await api('POST', '/api/auth/verify-email', { body: { email, code: await codeFromMail(email) }, ip });
    const onb = await api('POST', '/api/auth/onboarding', {
      body: { onboarding_token: ver.body.onboarding_token, org_name: 'Engines Ltd' },
      ip,
    });
    expect(onb.status, JSON.stringify(onb.body)).toBe(201);
    ownerToken = onb.body.token as string;

    context = await launchChromium(work, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = (await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })) as { authenticatorId: string });
    await page.goto(`${stack.gatewayUrl}/app/login`);
    await page.evaluate((t) => localStorage.setItem('signet.session', t), ownerToken);
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('adds a passkey in the Security view, then signs in with the passkey alone', async () => {
    await page.goto(`${stack.gatewayUrl}/app/security`);
    await signedInAt('security');
    expect(await page.isVisible('#nav-audit')).toBe(true);
    expect(await page.textContent('[data-passkeys=none]')).toMatch(/No passkeys yet/);
    await axe('security, no passkey');
    // Without a second factor there is nothing for recovery codes to replace.
    expect(await page.$('#recovery-generate')).toBeNull();

    await page.fill('#passkey-add input[name="name"]', 'Laptop');
    await page.click('#passkey-add button[type="submit"]');
    await page.waitForSelector('tr[data-passkey="Laptop"]', { timeout: 20_000 });
    expect(await page.textContent('tr[data-passkey="Laptop"]')).toContain('Never');
    await axe('security, one passkey');
    // Rename: Escape gives the name back untouched; Save renames.
    await page.click('button[aria-label="Rename passkey Laptop"]');
    await page.fill('tr[data-passkey="Laptop"] input[name="name"]', 'Discarded');
    await page.keyboard.press('Escape');
    expect(await page.textContent('tr[data-passkey="Laptop"] th')).toBe('Laptop');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename passkey Laptop');
    await page.keyboard.press('Enter');
    await axe('security, renaming');
    await page.fill('tr[data-passkey="Laptop"] input[name="name"]', '  Work laptop ');
    await page.keyboard.press('Enter');
    await page.waitForSelector('tr[data-passkey="Work laptop"]', { timeout: 20_000 });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename passkey Work laptop');
    const cdp = await context.newCDPSession(page);
    const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as {
      credentials: { rpId: string; isResidentCredential: boolean }[];
    };
    expect(credentials.map((c) => [c.rpId, c.isResidentCredential])).toEqual([['localhost', true]]);

    await page.click('#logout');
    await at('login');
    await page.click('#login-passkey button[type="submit"]');
    await signedInAt('transactions');
    await page.goto(`${stack.gatewayUrl}/app/security`);
    await at('security');
    expect(await page.textContent('tr[data-passkey="Work laptop"]')).not.toContain('Never');
    expect(errors).toEqual([]);
  }, 120_000);

  it('generates recovery codes; one replaces the second step once, and the passkey is that step too', async () => {
    await page.goto(`${stack.gatewayUrl}/app/security`);
    await at('security');
    expect(await page.getAttribute('[data-codes-left]', 'data-codes-left')).toBe('0');
    await page.click('#recovery-generate');
    await page.waitForSelector('#recovery-codes li', { timeout: 40_000 });
    codes = (await page.locator('#recovery-codes li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(await page.getAttribute('[data-codes-left]', 'data-codes-left')).toBe('10');
    await axe('security, new recovery codes');
    await fitsPhone();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#recovery-download')]);
    expect(readFileSync((await download.path())!, 'utf8')).toBe(codes.join('\n') + '\n');

    // After the password: the passkey is offered first, a recovery code one click away.
    await passwordStep();
    expect(await page.isVisible('form[data-method=passkey]')).toBe(true);
    await axe('second step');
    await page.click('button[data-method=recovery_code]');
    await page.fill('input[name=recovery_code]', codes[0]!);
    await page.keyboard.press('Enter');
    await signedInAt('transactions');

    // The same code again: refused, still on the sign-in page.
    await passwordStep();
    await page.click('button[data-method=recovery_code]');
    await page.fill('input[name=recovery_code]', codes[0]!);
    await page.keyboard.press('Enter');
    await page.waitForSelector('form[data-method=recovery_code] .form-error:not([hidden])', { timeout: 20_000 });
    expect(await page.evaluate(() => document.body.dataset.page)).toBe('login');
    expect(await page.evaluate(() => localStorage.getItem('signet.session'))).toBeNull();

    // The passkey as the second step of the same challenge (one wrong code does not end it).
    await page.click('button[data-method=passkey]');
    await page.click('form[data-method=passkey] button[type="submit"]');
    await signedInAt('transactions');
    await page.goto(`${stack.gatewayUrl}/app/security`);
    await at('security');
    expect(await page.getAttribute('[data-codes-left]', 'data-codes-left')).toBe('9');
    expect(errors).toEqual([]);
  }, 150_000);

  it('lists the sign-ins in the audit log, filters them and exports CSV', async () => {
    await page.click('a[data-nav=audit]');
    await at('audit-log');
    const actions = await page.locator('#audit-rows tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    // Newest first: the passkey as second step, the refused code, the recovery code, the new codes,
    // the passkey alone, the passkey renamed and added.
    expect(actions.slice(0, 7)).toEqual([
      'auth.login.succeeded',
      'auth.login.failed',
      'auth.login.succeeded',
      'recovery_codes.generated',
      'auth.login.succeeded',
      'passkey.renamed',
      'passkey.added',
    ]);
    // The action cell carries the entry's details; the row its actor and client.
    const action = async (n: number) => (await page.textContent(`#audit-rows tr:nth-child(${n}) th`))!.trim();
    expect(await page.textContent('#audit-rows tr:first-child')).toContain(email);
    expect(await page.textContent('#audit-rows tr:first-child')).toContain('127.0.0.1');
    expect(await action(1)).toBe('auth.login.succeeded method: password+passkey');
    expect(await action(2)).toMatch(/^auth\.login\.failed .*recovery_?code/);
    expect(await action(3)).toMatch(/^auth\.login\.succeeded method: .*recovery_?code$/);
    expect(await action(5)).toBe('auth.login.succeeded method: passkey');
    expect(await action(6)).toBe('passkey.renamed name: Work laptop, previous_name: Laptop');
    expect(await action(7)).toBe('passkey.added name: Laptop');
    await axe('audit log');
    await fitsPhone();

    await page.fill('#audit-filter input[name="action"]', 'auth.login.failed');
    await page.click('#audit-filter button[type="submit"]');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#audit-rows tr')].every((r) => r.getAttribute('data-action') === 'auth.login.failed'),
    );
    expect(await page.locator('#audit-rows tr').count()).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#audit-export-csv')]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^id,at,action,actor_id,actor_email/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toContain('auth.login.failed');
    // No recovery code is written anywhere in the log.
    expect(lines.join('\n')).not.toContain(codes[0]!);
    expect(errors).toEqual([]);
  }, 60_000);

  it('hides the audit log from a viewer', async () => {
    const viewer = await addMember(stack.gatewayUrl, ownerToken, 'viewer');
    await page.evaluate((t) => localStorage.setItem('signet.session', t), viewer.token);
    await page.goto(`${stack.gatewayUrl}/app/security`);
    await signedInAt('security');
    await page.waitForFunction(() => document.getElementById('who-org')?.textContent === 'Engines Ltd');
    expect(await page.isHidden('#nav-audit')).toBe(true);
    await page.goto(`${stack.gatewayUrl}/app/audit-log`);
    await at('audit-log');
    expect(await page.textContent('[data-audit=refused]')).toMatch(/Only owners and admins/);
    expect(await page.$('#audit-rows')).toBeNull();
    // The API refuses the viewer too: the view only says so.
    const r = await send(stack.gatewayUrl, 'GET', '/api/admin/audit-log', { token: viewer.token });
    expect([403, 404]).toContain(r.status);
    expect(errors).toEqual([]);
  }, 60_000);

  it('loads older entries with Load more, and exports the same entries as JSON', async () => {
    // 25 passkeys added and removed through the API: 50 more entries, more than one page.
    const api = client(stack.gatewayUrl);
    const key = softwareAuthenticator(new URL(stack.gatewayUrl).origin);
    for (let i = 0; i < 25; i++) {
      const opts = await api('POST', '/api/auth/passkeys/options', { token: ownerToken });
      const reg = await api('POST', '/api/auth/passkeys', {
        token: ownerToken,
        body: { name: `Spare ${i}`, response: key.create(opts.body).response },
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      expect((await api('DELETE', `/api/auth/passkeys/${reg.body.id}`, { token: ownerToken })).status).toBe(204);
    }
    await page.evaluate((t) => localStorage.setItem('signet.session', t), ownerToken);
    await page.goto(`${stack.gatewayUrl}/app/audit-log`);
    await at('audit-log');
    expect(await page.locator('#audit-rows tr').count()).toBe(50);
    expect(await page.getAttribute('#audit-rows tr:first-child', 'data-action')).toBe('passkey.removed');
    await page.click('#audit-more');
    await page.waitForFunction(() => document.querySelectorAll('#audit-rows tr').length > 50);
    // Keyboard users continue at the first entry loaded.
    expect(await page.evaluate(() => document.activeElement === document.querySelector('#audit-rows tr:nth-child(51)'))).toBe(
      true,
    );
    expect(await page.isHidden('#audit-more')).toBe(true);
    const ids = await page.locator('#audit-rows tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(new Set(ids).size).toBe(ids.length);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#audit-export-json')]);
    expect(download.suggestedFilename()).toBe('audit-log.json');
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { id: string }[];
    expect(exported.map((e) => e.id)).toEqual(ids);
    expect(errors).toEqual([]);
  }, 120_000);
});
