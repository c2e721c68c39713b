/**
 * The signing page's field step (issue 33 item 2) in Debian's Chromium (playwright-core, headless),
 * on real identity, billing, transaction, ceremony and gateway: a transaction with every kind of
 * field is created through the API; the page renders the PDF with pdf.js under the page's CSP (its
 * worker from 'self', no eval), puts each field's box where its PDF points say, and the signer fills
 * them through labelled controls — at 390×844 (a phone: no sideways scrolling, 16 px inputs, the
 * signature drawn with the pointer) and at 1280×800 (typed marks, the keyboard). A value the service
 * refuses (its pattern) is shown under its field and nothing is kept; the accepted values are what
 * GET …/fields answers, and the consent step follows. Screenshots go to test-artifacts/sign-fields/.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { pdfWithText } from '../../fixtures/fields.js';
import type { Account } from '../../harness/accounts.js';
import { startServices } from '../../harness/services.js';
import { send, senderAccount } from '../../support/ceremony-helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/sign-fields');
const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `brw-docs-${suffix}`, BUCKET_REFERENCES: `brw-refs-${suffix}` };

const PDF = pdfWithText([
  [
    { x: 72, y: 720, size: 18, text: 'Service agreement' },
    { x: 72, y: 500, size: 12, text: 'Company:' },
  ],
  [{ x: 72, y: 720, size: 12, text: 'Page two' }],
]);
const FIELDS = [
  { id: 'sig', type: 'signature', signer: 0, page: 1, x: 72, y: 100, width: 200, height: 50 },
  // A capital first: RE2 and JavaScript agree on it, and only the service checks it.
  {
    id: 'company',
    type: 'text',
    signer: 0,
    page: 1,
    x: 140,
    y: 496,
    width: 150,
    height: 16,
    max_length: 20,
    pattern: '[A-Z][A-Za-z ]+',
    label: 'Company',
  },
  { id: 'date', type: 'date_signed', signer: 0, page: 1, x: 300, y: 100, width: 100, height: 14 },
  { id: 'name', type: 'full_name', signer: 0, page: 1, x: 300, y: 130, width: 150, height: 14 },
  { id: 'po', type: 'text', signer: 0, page: 1, x: 400, y: 60, width: 100, height: 14, readonly: true, value: 'PO 1234' },
  { id: 'ini', type: 'initials', signer: 0, page: 2, x: 500, y: 60, width: 60, height: 30 },
  {
    id: 'plan',
    type: 'dropdown',
    signer: 0,
    page: 2,
    x: 72,
    y: 300,
    width: 100,
    height: 20,
    options: ['Basic', 'Pro'],
    label: 'Plan',
  },
  { id: 'agree', type: 'checkbox', signer: 0, page: 2, x: 72, y: 250, width: 14, height: 14, label: 'I accept the terms' },
  { id: 'note', type: 'text', signer: 0, required: false, page: 2, x: 72, y: 200, width: 300, height: 20, label: 'Note' },
];

type Fields = {
  fields: { id: string; value: unknown }[];
  complete: boolean;
  submitted_at: string | null;
  signature: string | null;
  initials: string | null;
};

describe('the signer fills their fields on the signing page in headless Chromium', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  const work = mkdtempSync(join(tmpdir(), 'signet-browser-'));
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function transaction(): Promise<{ id: number; token: string; url: string }> {
    const signers = [
      {
        name: 'Ada Lovelace',
        email: `ada-${randomBytes(4).toString('hex')}@example.com`,
        verification: 'liveness_only',
        required_assurance: 'recorded',
      },
    ];
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signers', value: JSON.stringify(signers) },
        { name: 'fields', value: JSON.stringify(FIELDS) },
        { name: 'document', data: PDF, filename: 'agreement.pdf', contentType: 'application/pdf' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    const url = r.body.sign_url as string;
    return { id: r.body.id as number, token: /\/sign\/([A-Za-z0-9_-]+)$/.exec(url)![1]!, url };
  }
  const fieldsOf = async (token: string) => (await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/fields`)).body as Fields;

  async function open(viewport: { width: number; height: number }, url: string) {
    const context = await launchChromium(join(work, `${viewport.width}`), { viewport });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-current="fields"]', { timeout: 20_000 });
    await page.waitForSelector('#f-pages[data-rendered="true"]', { timeout: 30_000 });
    return { page, problems };
  }

  /** Each box sits on its page where its points say: left/top/width/height within a pixel. */
  async function boxesPlaced(page: Page) {
    for (const f of FIELDS) {
      const pageBox = (await page.locator(`.pdf-page[data-page="${f.page}"]`).boundingBox())!;
      const box = (await page.locator(`.pdf-page[data-page="${f.page}"] .fld[data-field="${f.id}"]`).boundingBox())!;
      const k = pageBox.width / 612;
      expect(pageBox.height / pageBox.width).toBeCloseTo(792 / 612, 2);
      expect(Math.abs(box.x - pageBox.x - f.x * k), f.id).toBeLessThan(1.5);
      expect(Math.abs(box.y - pageBox.y - (792 - f.y - f.height) * k), f.id).toBeLessThan(1.5);
      expect(Math.abs(box.width - f.width * k), f.id).toBeLessThan(1.5);
    }
  }

  /** The page was drawn: pixels that are not white on page 1's canvas (its heading). */
  const inked = (page: Page) =>
    page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.pdf-page[data-page="1"] canvas')!;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, Math.round(c.height * 0.15)).data;
      let dark = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i]! < 128) dark++;
      return dark;
    });

  async function refusedThenAccepted(page: Page, token: string, shot: (f: string) => Promise<unknown>) {
    // Nothing filled: the page names each required field and sends nothing.
    await page.click('#f-submit');
    await page.waitForSelector('[data-field="company"] .field-error:not([hidden])');
    expect(await page.textContent('[data-field="company"] .field-error')).toMatch(/Fill in this field/);
    expect(await page.isVisible('[data-mark="initials"] .field-error')).toBe(true);
    expect(await page.isVisible('[data-mark="signature"] .field-error')).toBe(false);
    expect((await fieldsOf(token)).submitted_at).toBeNull();

    // A value the service refuses (its pattern): shown under the field, nothing kept.
    await page.getByLabel('Company').fill('lower case ltd');
    await page.getByLabel('I accept the terms').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Plan').selectOption('Pro');
    await page.getByLabel('Type your initials').fill('AL');
    await page.click('#f-submit');
    await page.waitForFunction(() =>
      /does not match the pattern/.test(document.querySelector('[data-field="company"] .field-error')?.textContent ?? ''),
    );
    expect(await page.getAttribute('[data-field="company"] input', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await page.getAttribute('[data-field="company"] input', 'id'),
    );
    await shot('refused');
    expect((await fieldsOf(token)).submitted_at).toBeNull();

    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByLabel('Note').fill('Deliver by Friday');
    expect(await page.textContent('.fld[data-field="company"]')).toBe('Analytical Engines');
    expect(await page.textContent('.fld[data-field="po"]')).toBe('PO 1234');
    await shot('filled');
    await page.click('#f-submit');
    await page.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
  }

  it('at 390×844: the pages fit the width, the boxes are at their points, a drawn signature, a refusal shown, the values kept', async () => {
    const tx = await transaction();
    const { page, problems } = await open({ width: 390, height: 844 }, tx.url);
    const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `390-${name}.png`), fullPage: true });
    await shot('opened');
    expect(await inked(page)).toBeGreaterThan(50);
    // No sideways scrolling; inputs at 16 px (no zoom to type); the page as wide as the column.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('[data-field="company"] input')!).fontSize)).toBe(
      '16px',
    );
    await boxesPlaced(page);
    // A tap on the box leads to its control.
    await page.click('.fld[data-field="company"]');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe(
      'company',
    );

    // The signature, drawn with the pointer.
    await page.check('[data-mark="signature"] input[value="draw"]');
    const pad = (await page.locator('[data-mark="signature"] canvas').boundingBox())!;
    await page.mouse.move(pad.x + 20, pad.y + pad.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(pad.x + 20 + i * ((pad.width - 40) / 12), pad.y + pad.height * (i % 2 ? 0.3 : 0.7));
    await page.mouse.up();
    expect(await page.locator('.fld[data-field="sig"] img').count()).toBe(1);

    await refusedThenAccepted(page, tx.token, shot);
    await shot('consent');
    const f = await fieldsOf(tx.token);
    expect(f).toMatchObject({ complete: true, signature: 'drawn', initials: 'typed' });
    const values = Object.fromEntries(f.fields.map((x) => [x.id, x.value]));
    expect(values).toMatchObject({
      company: 'Analytical Engines',
      plan: 'Pro',
      agree: true,
      note: 'Deliver by Friday',
      po: 'PO 1234',
    });
    expect(problems).toEqual([]);
  });

  it('at 1280×800: the form beside the document, typed marks, the values reach the service', async () => {
    const tx = await transaction();
    const { page, problems } = await open({ width: 1280, height: 800 }, tx.url);
    const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `1280-${name}.png`), fullPage: true });
    await shot('opened');
    await boxesPlaced(page);
    // Side by side: the form starts to the right of the document.
    const doc = (await page.locator('#f-pages').boundingBox())!;
    const form = (await page.locator('.fields-form').boundingBox())!;
    expect(form.x).toBeGreaterThanOrEqual(doc.x + doc.width);
    // The date and the name are the service's, shown and not editable.
    expect(await page.locator('[data-field="date"] input').count()).toBe(0);
    expect(await page.textContent('[data-field="name"] output')).toBe('Ada Lovelace');

    await page.getByLabel('Type your full name').fill('Ada Lovelace');
    expect(await page.textContent('.fld[data-field="sig"]')).toBe('Ada Lovelace');
    await refusedThenAccepted(page, tx.token, shot);
    const f = await fieldsOf(tx.token);
    expect(f).toMatchObject({ complete: true, signature: 'typed', initials: 'typed' });
    // A reload opens the consent (the fields are filled), with the way back to them, values kept.
    await page.reload();
    await page.waitForSelector('body[data-current="consent"]', { timeout: 20_000 });
    await page.click('#c-fields');
    await page.waitForSelector('body[data-current="fields"]');
    expect(await page.inputValue('[data-field="company"] input')).toBe('Analytical Engines');
    const detail = await send(stack.gatewayUrl, 'GET', `/api/transactions/${tx.id}`, { apiKey: acct.apiKey });
    const trail = (detail.body.events as { type: string; detail: string }[]).find((e) => e.type === 'fields_submitted');
    expect(trail?.detail).toMatch(/company="Analytical Engines".*signature=typed "Ada Lovelace"/);
    expect(problems).toEqual([]);
  });
});
