/// <reference lib="dom" />
/**
 * The dashboard's template editor (issue 33 item 3) in headless Chromium at 1280 × 800, against the
 * real gateway, identity, billing and transaction services: a template is uploaded from the
 * Templates page (a PDF of two pages and two roles); the editor renders it with pdf.js, a signature
 * is dragged from the palette onto page 1, moved, resized and given the second role, a text field is
 * added from the keyboard and moved with the arrow keys; Save sends them and GET /api/templates/{id}
 * answers the coordinates the boxes show (PDF points from the page's lower-left corner, within a
 * point). A field dragged to overlap another role's is refused by the service and the refusal shown;
 * a transaction is sent from the template (a signer per role, a prefilled value seen in the preview);
 * delete removes the template. Screenshots go to test-artifacts/template-editor/.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { pngPhoto } from '../../fixtures/documents.js';
import { pdfWithText } from '../../fixtures/fields.js';
import { createAccount, type Account } from '../../harness/accounts.js';
import { infra, startServices } from '../../harness/services.js';
import { send } from '../../support/http.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/template-editor');
const suffix = randomBytes(3).toString('hex');

type Box = { x: number; y: number; width: number; height: number };
type Field = { id: string; type: string; role: string; page: number; x: number; y: number; width: number; height: number };

describe('the template editor: fields dragged onto the rendered page, saved through the API', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let acct: Account;
  const work = mkdtempSync(join(tmpdir(), 'signet-tpl-editor-'));
  const errors: string[] = [];
  const pdfPath = join(work, 'agreement.pdf');
  const photoPath = join(work, 'face.png');

  const at = (name: string) => page.waitForSelector(`body[data-page="${name}"]`, { timeout: 20_000 });
  const shot = (file: string) => page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(
      pdfPath,
      pdfWithText([[{ x: 72, y: 720, size: 18, text: 'Service agreement' }], [{ x: 72, y: 720, size: 12, text: 'Page two' }]]),
    );
    writeFileSync(photoPath, pngPhoto());
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `tpl-docs-${suffix}`, BUCKET_REFERENCES: `tpl-refs-${suffix}`, REFERENCE_FACE_CHECK: 'off' },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'tpl-editor' });
    context = await launchChromium(work, { viewport: { width: 1280, height: 800 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${stack.gatewayUrl}/app/login`);
    await page.evaluate((t) => localStorage.setItem('signet.session', t), acct.token);
  }, 240_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const saved = async (id: string) => {
    const r = await send(stack.gatewayUrl, 'GET', `/api/templates/${id}`, { apiKey: acct.apiKey });
    expect(r.status, r.text).toBe(200);
    return r.body as { fields: Field[]; roles: { name: string }[] };
  };
  /** A box's place in points, read from the screen: its pixels on its page, scaled. */
  const shownPoints = async (fid: string) => {
    const el = page.locator(`.tfld[data-field="${fid}"]`);
    const n = Number(await el.evaluate((e) => (e.closest('.pdf-page') as HTMLElement).dataset.page));
    const p = (await page.locator(`.pdf-page[data-page="${n}"]`).boundingBox())!;
    const b = (await el.boundingBox())!;
    const k = 612 / p.width;
    return { page: n, x: (b.x - p.x) * k, y: 792 - (b.y - p.y + b.height) * k, width: b.width * k, height: b.height * k };
  };
  const near = (a: Box, b: Box, tol = 1) => {
    for (const key of ['x', 'y', 'width', 'height'] as const)
      expect(Math.abs(a[key] - b[key]), `${key}: ${a[key]} vs ${b[key]}`).toBeLessThan(tol);
  };

  it('uploads a template, places, moves and resizes fields, saves them where they are shown', async () => {
    await page.goto(`${stack.gatewayUrl}/app/templates`);
    await at('templates');
    await page.getByLabel('Name').fill('Service agreement');
    await page.setInputFiles('#tpl-document', pdfPath);
    await page.getByLabel('Signer roles').fill('client, witness');
    await page.click('#template-create button[type="submit"]');
    await at('template-editor');
    await page.waitForSelector('#tpl-pages[data-rendered="true"]', { timeout: 30_000 });
    const id = /\/app\/templates\/([^/]+)$/.exec(page.url())![1]!;
    await shot('01-editor-1280.png');

    // Drag a signature from the palette onto page 1, its top-left corner at (100, 200) points from the top.
    const p1 = (await page.locator('.pdf-page[data-page="1"]').boundingBox())!;
    const k = p1.width / 612;
    const src = (await page.locator('.palette-item[data-kind="signature"]').boundingBox())!;
    await page.mouse.move(src.x + 10, src.y + 10);
    await page.mouse.down();
    await page.mouse.move(src.x + 60, src.y + 30, { steps: 5 });
    await page.mouse.move(p1.x + 100 * k, p1.y + 200 * k, { steps: 10 });
    await page.mouse.up();
    await page.waitForSelector('.tfld[data-field="signature_1"]');
    near(await shownPoints('signature_1'), { x: 100, y: 792 - 200 - 40, width: 160, height: 40 }, 1.5);

    // Move it by (+50, +30) points on screen (30 down), then pull its corner by (+40, +20).
    const box = (await page.locator('.tfld[data-field="signature_1"]').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 20 + 50 * k, box.y + 10 + 30 * k, { steps: 8 });
    await page.mouse.up();
    const moved = (await page.locator('.tfld[data-field="signature_1"]').boundingBox())!;
    await page.mouse.move(moved.x + moved.width - 3, moved.y + moved.height - 3);
    await page.mouse.down();
    await page.mouse.move(moved.x + moved.width - 3 + 40 * k, moved.y + moved.height - 3 + 20 * k, { steps: 8 });
    await page.mouse.up();
    await page.getByLabel('Role').selectOption('witness');

    // A text field from the keyboard: chosen in the palette (added to the page in view), moved with arrows.
    await page.focus('.palette-item[data-kind="text"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tfld[data-field="text_1"]');
    const before = await shownPoints('text_1');
    await page.focus('.tfld[data-field="text_1"]');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowUp');
    near(await shownPoints('text_1'), { ...before, x: before.x + 10, y: before.y + 1 });
    await page.getByLabel('Maximum length').fill('20');
    await shot('02-placed-1280.png');

    await page.click('#tpl-save');
    await page.waitForFunction(() => document.getElementById('tpl-status')?.textContent === 'Saved.', null, { timeout: 20_000 });
    const tpl = await saved(id);
    const sig = tpl.fields.find((f) => f.id === 'signature_1')!;
    expect(sig).toMatchObject({ type: 'signature', role: 'witness', page: 1 });
    near(sig, { x: 150, y: 792 - 230 - 60, width: 200, height: 60 }, 1.5);
    near(sig, await shownPoints('signature_1'));
    const text = tpl.fields.find((f) => f.id === 'text_1')!;
    expect(text).toMatchObject({ type: 'text', role: 'client', max_length: 20 });
    near(text, await shownPoints('text_1'));

    // The client's text dragged over the witness's signature: refused by the service, shown, nothing changed.
    const t1 = (await page.locator('.tfld[data-field="text_1"]').boundingBox())!;
    const s1 = (await page.locator('.tfld[data-field="signature_1"]').boundingBox())!;
    await page.mouse.move(t1.x + 5, t1.y + 5);
    await page.mouse.down();
    await page.mouse.move(s1.x + 10, s1.y + 10, { steps: 10 });
    await page.mouse.up();
    await page.click('#tpl-save');
    await page.waitForSelector('.tpl-editor .form-error:not([hidden])', { timeout: 20_000 });
    expect(await page.textContent('.tpl-editor .form-error')).toMatch(/overlaps/);
    await shot('03-overlap-refused-1280.png');
    near(
      (await saved(id)).fields.find((f) => f.id === 'text_1')!,
      text,
      0.01,
    );

    // Send from it: a signer per role with their photos, a prefilled value shown in the preview at its box.
    await page.click('#tpl-send');
    await at('template-send');
    await page.waitForSelector('#send-preview[data-rendered="true"]', { timeout: 30_000 });
    for (const [i, who] of ['Ada Client', 'Walt Witness'].entries()) {
      await page.fill(`[name="signer_${i}_name"]`, who);
      await page.fill(`[name="signer_${i}_email"]`, `${who.split(' ')[0]!.toLowerCase()}-${suffix}@example.com`);
      await page.setInputFiles(`#send-photo-${i}`, photoPath);
    }
    await page.fill('[name="prefill_text_1"]', 'Acme Ltd');
    expect(await page.textContent('#send-preview .tfld[data-field="text_1"]')).toBe('Acme Ltd');
    await shot('04-send-1280.png');
    await page.click('#template-send button[type="submit"]');
    await at('detail');
    const txId = Number(/\/app\/transactions\/(\d+)$/.exec(page.url())![1]);
    const tx = await send(stack.gatewayUrl, 'GET', `/api/transactions/${txId}`, { apiKey: acct.apiKey });
    expect(tx.status, tx.text).toBe(200);
    expect(JSON.stringify(tx.body)).toContain(`walt-${suffix}@example.com`);

    // Delete, confirmed: gone from the API and the list.
    await page.goto(`${stack.gatewayUrl}/app/templates/${id}`);
    await at('template-editor');
    await page.click('#tpl-delete');
    await page.click('dialog [data-confirm="yes"]');
    await at('templates');
    expect((await send(stack.gatewayUrl, 'GET', `/api/templates/${id}`, { apiKey: acct.apiKey })).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
