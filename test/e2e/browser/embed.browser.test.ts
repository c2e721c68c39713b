/**
 * Embedded signing in Debian's Chromium (issue 34 item 6): an integrator's page on another origin
 * (127.0.0.1, a second port) frames a signing link with the SDK's `embedSigning` and receives the
 * page's events — ready, consented on one link, ready and declined on another — posted to its origin
 * only (never `*`, never the account's other origins). A page on an origin the account does not allow
 * gets no page in the frame: the gateway's frame-ancestors blocks it, and no event arrives.
 * Screenshots go to test-artifacts/embed/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { Account } from '../../harness/accounts.js';
import { startServices } from '../../harness/services.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../../support/ceremony-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/embed');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `emb-docs-${suffix}`, BUCKET_REFERENCES: `emb-refs-${suffix}` };

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Integrator</title></head>
<body style="margin:0;font-family:sans-serif">
<h1 style="font-size:16px;margin:8px">An integrator's page</h1>
<div id="signing" style="width:390px;height:720px;border:1px solid #888"></div>
<script type="module">
import { embedSigning } from '/embed.js';
window.signetEvents = [];
const url = new URLSearchParams(location.search).get('url');
embedSigning({ url, container: document.getElementById('signing'), onEvent: (e) => window.signetEvents.push(e) });
</script></body></html>`;

/** In every frame: the target origin of each postMessage the signing page sends to its parent. */
const RECORD_TARGETS = `(() => {
  if (window === window.top) return;
  const real = window.parent;
  const targets = (window.__signetTargets = []);
  const proxy = { postMessage: (message, origin) => { targets.push(origin); real.postMessage(message, origin); } };
  Object.defineProperty(window, 'parent', { get: () => proxy, configurable: true });
})();`;

/** An integrator's origin: the host page and the SDK's browser entry (compiled from its source). */
function integrator(embedJs: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/embed.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(embedJs);
    else if (path === '/host.html') res.writeHead(200, { 'content-type': 'text/html' }).end(HOST_PAGE);
    else res.writeHead(404).end();
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe('the signing page embedded by another origin, in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let txConsent: CreatedTx;
  let txDecline: CreatedTx;
  let txRefused: CreatedTx;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let context: BrowserContext;
  const work = mkdtempSync(join(tmpdir(), 'signet-embed-'));

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    const source = readFileSync(join(ROOT, 'packages/sdk/src/embed.ts'), 'utf8');
    const embedJs = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    [allowed, other] = await Promise.all([integrator(embedJs), integrator(embedJs)]);
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const r = await send(stack.gatewayUrl, 'PUT', `/api/admin/account/embed-origins?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { origins: ['https://app.example.com', allowed.origin] },
    });
    expect(r.status, r.text).toBe(200);
    const made = await Promise.all(
      ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'].map((n) => createTransaction(stack.gatewayUrl, acct, n)),
    );
    [txConsent, txDecline, txRefused] = made as [CreatedTx, CreatedTx, CreatedTx];
    context = await launchChromium(work, { viewport: { width: 480, height: 800 } });
    await context.addInitScript(RECORD_TARGETS);
  });
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    allowed?.server.close();
    other?.server.close();
    rmSync(work, { recursive: true, force: true });
  });

  const open = async (host: string, signUrl: string) => {
    const page = await context.newPage();
    await page.goto(`${host}/host.html?url=${encodeURIComponent(signUrl)}`);
    return page;
  };
  const events = (page: Page) => page.evaluate(() => (window as unknown as { signetEvents: { type: string }[] }).signetEvents);
  const waitForEvent = (page: Page, type: string) =>
    page.waitForFunction(
      (t) => (window as unknown as { signetEvents: { type: string }[] }).signetEvents.some((e) => e.type === t),
      type,
      { timeout: 20_000 },
    );
  const signingFrame = (page: Page): Frame => {
    const f = page.frames().find((fr) => fr !== page.mainFrame());
    if (!f) throw new Error('no frame');
    return f;
  };
  const shot = (page: Page, file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  it('receives ready and consented, posted to the integrator’s origin only', async () => {
    const page = await open(allowed.origin, txConsent.sign_url);
    await waitForEvent(page, 'ready');
    const frame = signingFrame(page);
    await frame.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    // The screen's heading has focus (for screen readers) and draws no focus frame (issue 34 item 9).
    expect(
      await frame.evaluate(() => ({
        id: document.activeElement?.id,
        outline: getComputedStyle(document.activeElement!).outlineStyle,
      })),
    ).toEqual({ id: 'h-consent', outline: 'none' });
    await shot(page, '01-embedded-consent.png');
    await frame.check('#c-agree');
    await frame.click('#c-submit');
    await waitForEvent(page, 'consented');
    expect((await events(page)).slice(0, 2)).toEqual([{ type: 'ready', step: 'consent' }, { type: 'consented' }]);
    const targets = await frame.evaluate(() => (window as unknown as { __signetTargets: string[] }).__signetTargets);
    expect(targets.length).toBeGreaterThanOrEqual(2);
    expect(new Set(targets)).toEqual(new Set([allowed.origin]));
    await page.close();
  });

  it('receives ready and declined when the signer declines in the frame', async () => {
    const page = await open(allowed.origin, txDecline.sign_url);
    await waitForEvent(page, 'ready');
    const frame = signingFrame(page);
    await frame.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    await frame.click('#c-decline');
    await frame.waitForSelector('body[data-current="decline"]');
    await frame.fill('#d-reason', 'Not me');
    await frame.click('#d-confirm');
    await waitForEvent(page, 'declined');
    await shot(page, '02-embedded-declined.png');
    expect(await events(page)).toEqual([{ type: 'ready', step: 'consent' }, { type: 'declined' }]);
    const detail = await send(stack.gatewayUrl, 'GET', `/api/transactions/${txDecline.id}`, { apiKey: acct.apiKey });
    expect(detail.body.status).toBe('declined');
    await page.close();
  });

  it('a page on an origin the account does not allow gets no signing page in its frame', async () => {
    const page = await context.newPage();
    const csp = page.waitForResponse((r) => r.url() === txRefused.sign_url).then((r) => r.headers()['content-security-policy']);
    await page.goto(`${other.origin}/host.html?url=${encodeURIComponent(txRefused.sign_url)}`);
    expect(await csp).toContain(`frame-ancestors https://app.example.com ${allowed.origin};`);
    // Give a page that did load time to say ready.
    await page.waitForTimeout(3000);
    await shot(page, '03-refused-origin.png');
    expect(await events(page)).toEqual([]);
    const frame = signingFrame(page);
    expect(frame.url()).not.toBe(txRefused.sign_url);
    expect(await frame.evaluate(() => document.querySelectorAll('section[data-screen]').length).catch(() => 0)).toBe(0);
    // The same link still opens on its own.
    const direct = await context.newPage();
    await direct.goto(txRefused.sign_url);
    await direct.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    await direct.close();
    await page.close();
  });
});
