/**
 * The signing page with an organisation's branding in Debian's Chromium (issue 34 item 4): with a
 * colour and a logo set through the API, the page's header is drawn in that colour with the logo and
 * display name in it, and the primary button takes the colour. Checked on the screenshot's pixels
 * (decoded with ffmpeg): the header's background and the logo's pixels are the colours set.
 * Screenshots go to test-artifacts/branding/.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from './chromium.js';
import type { Account } from '../../harness/accounts.js';
import { startServices } from '../../harness/services.js';
import { send, senderAccount } from '../../support/ceremony-helpers.js';
import { tinyPdf } from '../../fixtures/ceremony-media.js';
import { solidPng } from '../../fixtures/documents.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/branding');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `brb-docs-${suffix}`, BUCKET_REFERENCES: `brb-refs-${suffix}` };
const COLOR = [0x1f, 0x4e, 0x79];
const LOGO = [0x00, 0xc0, 0x40];

/** The RGB pixels of a PNG file (ffmpeg → rawvideo rgb24). */
function pixels(file: string, width: number) {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  return (x: number, y: number) => [...raw.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
}
const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 6);

describe('a branded signing page in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let context: BrowserContext;
  const work = mkdtempSync(join(tmpdir(), 'signet-browser-'));

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    context = await launchChromium(work, { viewport: { width: 390, height: 844 } });
    // The web build and the stack take minutes on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('draws the header in the organisation’s colour with its logo and name; the primary button too', async () => {
    const csrf = async () => (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const color = `#${COLOR.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    const set = await send(stack.gatewayUrl, 'PUT', `/api/admin/account/branding?csrf=${await csrf()}`, {
      token: acct.token,
      json: { display_name: 'Acme Legal', color },
    });
    expect(set.status).toBe(200);
    const logo = solidPng('0x00c040', 96, 96);
    const put = await send(stack.gatewayUrl, 'PUT', `/api/admin/account/branding/logo?csrf=${await csrf()}`, {
      token: acct.token,
      raw: { data: logo, contentType: 'image/png' },
    });
    expect(put.status).toBe(200);

    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        {
          name: 'signers',
          value: JSON.stringify([
            { name: 'Ada', email: `brand-${randomBytes(4).toString('hex')}@example.com`, verification: 'liveness_only' },
          ]),
        },
        { name: 'document', filename: 'contract.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
      ],
    });
    expect(r.status).toBe(201);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(r.body.sign_url);
    await page.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    await page.waitForFunction(() => (document.querySelector('.brand-logo') as HTMLImageElement | null)?.complete === true);
    expect(await page.textContent('.bar .brand')).toBe('Acme Legal');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#c-submit')!).backgroundColor)).toBe(
      `rgb(${COLOR.join(', ')})`,
    );

    const file = join(ARTIFACTS, 'branded-consent-390.png');
    writeFileSync(file, await page.screenshot());
    const px = pixels(file, 390);
    const bar = (await page.locator('.bar').boundingBox())!;
    const img = (await page.locator('.brand-logo').boundingBox())!;
    // The header's background, right of the logo and name, left of the document chip.
    expect(px(Math.round(bar.x + 4), Math.round(bar.y + 4))).toSatisfy((p: number[]) => near(p, COLOR));
    expect(px(Math.round(bar.x + bar.width - 4), Math.round(bar.y + bar.height - 4))).toSatisfy((p: number[]) => near(p, COLOR));
    // The logo's middle is its own colour.
    expect(px(Math.round(img.x + img.width / 2), Math.round(img.y + img.height / 2))).toSatisfy((p: number[]) => near(p, LOGO));
    // Below the header the page stays white.
    expect(px(5, Math.round(bar.y + bar.height + 12))).toSatisfy((p: number[]) => near(p, [255, 255, 255]));
    expect(errors).toEqual([]);
  });
});
