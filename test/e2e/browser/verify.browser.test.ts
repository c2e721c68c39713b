/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The proof links and the public /verify page (issue 32 items 5 and 8), in headless Chromium against
 * the real gateway and services, with a test-mode certificate (completed without a ceremony, sealed in
 * the test log): the evidence link printed in the certificate of completion (read back with pdftotext)
 * and the page's download link both answer 200 with the bundle; the page lists the keys of
 * /api/ledger/keys; a TEST certificate is shown as a test, not in a live certificate's green, and claims
 * no verification; words wrap between words on a narrow screen; a dropped PDF without a seal says so.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { createAccount, type Account } from '../../harness/accounts.js';
import { eventually, infra, startServices } from '../../harness/services.js';
import { pngPhoto, tinyPdf } from '../../fixtures/documents.js';
import { send } from '../../support/http.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const suffix = randomBytes(3).toString('hex');
/** The live certificate's green (verify.css .ok): a test certificate must not wear it. */
const LIVE_GREEN = 'rgb(17, 99, 41)';

/** Ordinary words (not inside a hash, key or seal) whose letters sit on more than one line. */
function wordsBrokenAcrossLines(): string[] {
  const broken: string[] = [];
  for (const el of document.querySelectorAll('#checks li, #details dd, #file, #result, #keys li')) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const word = /(?<![\w+/=.:-])[A-Za-z]{2,20}(?![\w+/=:-])/g;
      for (let m = word.exec(text); m; m = word.exec(text)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}

describe('proof links that work, keys people can find, an honest /verify page', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let context: BrowserContext;
  let page: Page;
  let acct: Account;
  let testKey: string;
  const work = mkdtempSync(join(tmpdir(), 'signet-verify-page-'));
  const pdf = tinyPdf(randomUUID());
  const sha = createHash('sha256').update(pdf).digest('hex');
  let reference: string;
  let id: number;

  beforeAll(async () => {
    execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: ROOT, stdio: 'ignore' });
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'VPAGE',
        BUCKET_DOCUMENTS: `vpage-docs-${suffix}`,
        BUCKET_REFERENCES: `vpage-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'verifypage' });
    const auth = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: testKey,
      parts: [
        { name: 'signer_name', value: 'Vera Page' },
        { name: 'signer_email', value: `vera-${suffix}@example.com` },
        { name: 'document', data: pdf, filename: 'contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    ({ id, reference } = created.body as { id: number; reference: string });
    const done = await send(stack.gatewayUrl, 'POST', `/api/transactions/${id}/test/complete`, {
      apiKey: testKey,
      json: { outcome: 'verified' },
    });
    expect(done.status, done.text).toBe(200);
    await eventually(
      async () =>
        (await send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { apiKey: testKey })).body.status === 'ledger_issued',
      30_000,
    );
    context = await launchChromium(work, { viewport: { width: 390, height: 844 } });
    page = context.pages()[0] ?? (await context.newPage());
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the certificate of completion prints the evidence and keys links whole, and both answer 200', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/transactions/${id}/certificate.pdf`, { headers: { 'x-api-key': testKey } });
    expect(res.status).toBe(200);
    const file = join(work, 'certificate.pdf');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    const proof = /https?:\/\/\S+\/api\/ledger\/proof\/\S+/.exec(text)?.[0];
    expect(proof).toBe(`${stack.gatewayUrl}/api/ledger/proof/${reference}?hash=${sha.slice(0, 16)}`);
    const bundle = await fetch(proof!);
    expect(bundle.status).toBe(200);
    expect(((await bundle.json()) as { certificate: { reference: string } }).certificate.reference).toBe(reference);
    const keys = /https?:\/\/\S+\/api\/ledger\/keys(?=\s)/.exec(text)?.[0];
    expect(keys).toBe(`${stack.gatewayUrl}/api/ledger/keys`);
    expect((await fetch(keys!)).status).toBe(200);
    // A test certificate claims no verification that never ran.
    expect(text).toContain('no ceremony ran');
    expect(text).not.toMatch(/passed \S*biometric/i);
    expect(text).not.toMatch(/Every signer passed/);
  });

  it('a TEST certificate on the page: styled as a test, no claimed verification, a working evidence link, the keys listed', async () => {
    await page.goto(`${stack.gatewayUrl}/verify?ref=${reference}&hash=${sha.slice(0, 16)}`);
    await page.waitForFunction(
      () => /^(TEST|Verified|Not verified)/.test(document.getElementById('result')?.textContent ?? ''),
      null,
      {
        timeout: 15_000,
      },
    );
    expect(await page.textContent('#result')).toBe(`TEST certificate, verified in the test log: ${reference}`);
    expect(await page.getAttribute('#result', 'class')).toBe('test');
    expect(await page.$eval('#result', (el) => getComputedStyle(el).color)).not.toBe(LIVE_GREEN);
    const checks = await page.$$eval('#checks li', (lis) => lis.map((li) => `${li.className} ${li.textContent}`));
    expect(checks.filter((c) => c.startsWith('bad'))).toEqual([]);

    const details = await page.$$eval('#details dt', (dts) =>
      Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''])),
    );
    expect(details['Verification']).toMatch(/^none: test mode/);
    expect(Object.values(details).join(' ')).not.toMatch(/biometric/i);

    // The evidence link the page offers works as it is (it carries the hash the route requires).
    const href = await page.getAttribute('#download', 'href');
    expect(href).toBe(`/api/ledger/proof/${reference}?hash=${sha.slice(0, 16)}&download=1`);
    const followed = await page.evaluate(async (h) => {
      const r = await fetch(h);
      return { status: r.status, disposition: r.headers.get('content-disposition') };
    }, href!);
    expect(followed).toEqual({ status: 200, disposition: `attachment; filename="${reference}.cert.json"` });

    // Every key /api/ledger/keys serves is listed: the live log's and the test log's.
    const served = (await (await fetch(`${stack.gatewayUrl}/api/ledger/keys`)).json()) as {
      keys: { log: string; role: string; verifier_key: string }[];
    };
    expect(served.keys.filter((k) => k.role === 'log').map((k) => k.log)).toEqual(['live', 'test']);
    await page.waitForFunction((n) => document.querySelectorAll('#keys li').length === n, served.keys.length);
    const listed = await page.$$eval('#keys li code', (els) => els.map((e) => e.textContent));
    expect(listed).toEqual(served.keys.map((k) => k.verifier_key));
    expect(await page.getAttribute('#keys-link', 'href')).toBe('/api/ledger/keys');

    // Narrow screen: long hashes may break anywhere, words only between words.
    expect(await page.evaluate(wordsBrokenAcrossLines)).toEqual([]);
  });

  it('a dropped PDF that carries no seal says so, and is checked as the original', async () => {
    await page.goto(`${stack.gatewayUrl}/verify`);
    await page.setInputFiles('#pdf', { name: 'contract.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.waitForFunction(() => /carries no seal/.test(document.getElementById('file')?.textContent ?? ''));
    expect(await page.textContent('#file')).toContain(`contract.pdf carries no seal (no signature)`);
    expect(await page.textContent('#file')).toContain(sha);
    expect(await page.textContent('#result')).toMatch(/^This PDF carries no seal/);
    expect(await page.inputValue('#hash')).toBe(sha.slice(0, 16));
    // With the reference, the same file verifies as the original of the certificate.
    await page.fill('#ref', reference);
    await page.click('button[type=submit]');
    await page.waitForFunction(
      () => /^(TEST|Verified|Not verified)/.test(document.getElementById('result')?.textContent ?? ''),
      null,
      {
        timeout: 15_000,
      },
    );
    expect(await page.textContent('#result')).toBe(`TEST certificate, verified in the test log: ${reference}`);
    expect(await page.evaluate(wordsBrokenAcrossLines)).toEqual([]);
  });
});
