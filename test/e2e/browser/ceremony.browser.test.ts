/**
 * The signing page in Debian's Chromium (playwright-core, headless) with a fake camera fed from a
 * Y4M made at test time: a real signing link from a transaction created through the API is opened,
 * consented, challenged, recorded with MediaRecorder, uploaded, and the transaction reaches
 * capture_accepted with the event naming the stored video and frame on the stream. A screenshot of
 * each screen goes to test-artifacts/ceremony/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { connectBus, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Account } from '../../harness/accounts.js';
import { eventually, infra, startServices } from '../../harness/services.js';
import { findFaceImage, makeY4m } from '../../fixtures/ceremony-media.js';
import { createTransaction, senderAccount, transactionStatus, type CreatedTx } from '../../support/ceremony-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/ceremony');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `brw-docs-${suffix}`,
  BUCKET_REFERENCES: `brw-refs-${suffix}`,
  BUCKET_CAPTURES: `brw-caps-${suffix}`,
};

describe('the signing page in headless Chromium with a fake camera', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  let bus: Bus;
  let context: BrowserContext;
  const work = mkdtempSync(join(tmpdir(), 'signet-browser-'));
  const external: string[] = [];

  beforeAll(async () => {
    // The page the gateway serves is the built one.
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    const y4m = makeY4m(work, findFaceImage(ROOT) ?? findFaceImage(join(ROOT, 'services/biometrics')));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    bus = await connectBus(infra().NATS_URL, 'ceremony-browser-test');
    context = await launchChromium(work, { viewport: { width: 360, height: 740 }, media: { y4m } });
  });
  afterAll(async () => {
    await context?.close();
    await bus?.nc.drain();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const screen = async (page: Page, name: string, timeout = 20_000) => {
    await page.waitForSelector(`body[data-current="${name}"]`, { timeout });
  };
  const shot = (page: Page, file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  it('consents, records the challenge and uploads; the transaction reaches capture_accepted', async () => {
    const page = await context.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(stack.gatewayUrl) && !r.url().startsWith('blob:') && !r.url().startsWith('data:'))
        external.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The flashes the service revealed (in a chunk's answer), and every colour the page lights, with
    // the page's clock (the short flashes come 250 ms apart).
    const flashes: { flashes: string[]; flash_ms: number }[] = [];
    page.on('response', (r) => {
      if (/\/live\/[0-9a-f]+\/chunks\/\d+(\?|$)/.test(r.url()))
        void r
          .json()
          .then((b: { reveal?: { flashes: string[]; flash_ms: number } }) => b.reveal?.flashes.length && flashes.push(b.reveal))
          .catch(() => undefined);
    });
    await page.addInitScript(() => {
      const w = globalThis as unknown as { __lights: [number, string][] };
      w.__lights = [];
      new MutationObserver(() => {
        const c = document.body?.dataset.light;
        if (c && c !== w.__lights.at(-1)?.[1]) w.__lights.push([performance.now(), c]);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-light'] });
    });

    await page.goto(tx.sign_url);
    await screen(page, 'consent');
    expect(await page.textContent('#c-doc')).toBe('Employment contract.pdf');
    expect(await page.textContent('#c-attest')).toContain('Ada Lovelace');
    await shot(page, '01-consent-360.png');
    // Keyboard only: tab to the checkbox, space to tick, then the button.
    await page.focus('#c-agree');
    await page.keyboard.press('Space');
    await page.focus('#c-submit');
    await page.keyboard.press('Enter');

    await screen(page, 'camera');
    await shot(page, '02-camera.png');
    await page.click('#camera-allow');
    await screen(page, 'preview');
    await expect
      .poll(() => page.$eval('#preview', (v) => (v as unknown as { videoWidth: number }).videoWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await shot(page, '03-preview.png');
    await page.click('#start');
    // WebAuthn is offered before the recording when the browser supports it; this test skips it (no authenticator).
    await page.waitForSelector('body[data-current="webauthn"], body[data-current="record"]', { timeout: 15_000 });
    if ((await page.getAttribute('body', 'data-current')) === 'webauthn') {
      await shot(page, '04-webauthn.png');
      await page.click('#webauthn-skip');
    }

    // The live recording: each prompt and screen colour arrives as the previous chunk is received.
    await screen(page, 'record');
    const colours = new Set<string>();
    const watch = setInterval(() => {
      void page
        .getAttribute('body', 'data-light')
        .then((c) => c && colours.add(c))
        .catch(() => undefined);
    }, 250);
    await page.locator('#prompt-words', { hasText: '·' }).waitFor();
    expect((await page.textContent('#prompt-words'))!.split('·')).toHaveLength(4);
    await shot(page, '05-record-words.png');
    await page.locator('#prompt-title', { hasText: '1 of 3' }).waitFor({ timeout: 15_000 });
    await shot(page, '06-record-action.png');
    await page.waitForSelector('body[data-current="upload"], body[data-current="verifying"]', { timeout: 40_000 });
    clearInterval(watch);
    expect(colours.size, 'the screen changed colour during the recording').toBeGreaterThanOrEqual(3);
    // The flash segment's four colours were lit in order, each 250 ms after the one before (timers are
    // scheduled from the segment's shown time, so a late one does not push the others: the span holds).
    expect(flashes, 'one segment revealed with flashes').toHaveLength(1);
    const flash = { colours: flashes[0]!.flashes, stepMs: flashes[0]!.flash_ms };
    expect(flash.colours).toHaveLength(4);
    expect(flash.stepMs).toBe(250);
    const lights = await page.evaluate(() => (globalThis as unknown as { __lights: [number, string][] }).__lights);
    const at = lights.findIndex((_, i) => flash.colours.every((c, j) => lights[i + j]?.[1] === c));
    expect(at, `the flashes ${flash.colours.join(' ')} among ${lights.map((l) => l[1]).join(' ')}`).toBeGreaterThanOrEqual(0);
    const gaps = [1, 2, 3].map((j) => Math.round(lights[at + j]![0] - lights[at + j - 1]![0]));
    for (const gap of gaps) expect(gap, `gaps between flashes ${gaps.join(', ')} ms`).toBeGreaterThan(100);
    expect(Math.abs(gaps[0]! + gaps[1]! + gaps[2]! - 3 * flash.stepMs), `gaps ${gaps.join(', ')} ms`).toBeLessThan(200);
    await shot(page, '07-upload.png');
    await screen(page, 'verifying', 60_000);
    await shot(page, '08-verifying.png');

    // The transaction moved; the event names the stored media and describes the recording.
    await eventually(async () => (await transactionStatus(stack.gatewayUrl, acct, tx.id)) === 'capture_accepted', 20_000);
    const ev = await eventually(async () => {
      const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [events.captureSubmitted.subject] });
      const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
      for await (const m of batch) {
        const e = eventsV1.CaptureSubmitted.decode(m.data);
        // The stream is emptied when this file's stack starts: this stack's transaction is the only one with its id.
        if (e.transactionId === tx.id) return e;
      }
      return undefined;
    });
    expect(ev).toMatchObject({
      attempt: 1,
      videoKey: `${tx.id}/0/${ev.captureId}/video.webm`,
      frameKey: `${tx.id}/0/${ev.captureId}/frame.jpg`,
    });
    expect(ev.challenge?.words).toHaveLength(4);
    expect(ev.challenge?.actions).toHaveLength(3);
    expect(ev.challenge?.mode).toBe('live');
    expect(ev.challenge?.timeline?.flash?.colours).toEqual(flashes[0]!.flashes);
    expect(ev.live?.assurance, ev.live?.detail).toBe('live');
    // The recorded video is a real video of the fake camera, decoded at submission, longer than the prompts.
    expect(ev.durationSeconds).toBeGreaterThan(2);
    expect(ev.videoSha256).toMatch(/^[0-9a-f]{64}$/);

    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    expect((await fetch(`${stack.gatewayUrl}/assets/no-such-file.js`)).status).toBe(404);
    const html = await fetch(tx.sign_url);
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.headers.get('referrer-policy')).toBe('no-referrer');

    // The same page on a desktop viewport.
    const desk = await context.newPage();
    await desk.setViewportSize({ width: 1280, height: 800 });
    await desk.goto(tx.sign_url);
    await screen(desk, 'verifying');
    await shot(desk, '09-desktop-verifying.png');
  }, 180_000);

  it('a cancelled link shows a readable message instead of the ceremony', async () => {
    const other = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    const cancel = await fetch(`${stack.gatewayUrl}/api/transactions/${other.id}/cancel`, {
      method: 'POST',
      headers: { 'x-api-key': acct.apiKey },
    });
    expect(cancel.status).toBeLessThan(300);
    const page = await context.newPage();
    await page.goto(other.sign_url);
    await screen(page, 'error');
    expect(await page.textContent('#error-text')).toMatch(/not valid/);
    await shot(page, '10-cancelled.png');
  });
});
