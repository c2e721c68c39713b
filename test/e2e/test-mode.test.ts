/**
 * Test mode end to end (issue 16), through the gateway only, on real identity, billing, transaction
 * and ledger: a test-mode API key (sgn_test_…) creates transactions on a Free account without using
 * its quota; live and test data never see each other (list and get); POST /api/transactions/{id}/test/complete
 * drives a test transaction to an outcome without a ceremony, and answers 404 for a live transaction
 * and for a live key; a test certificate is sealed in the test log: /api/verify says so, and the
 * signet-verify CLI accepts it with the test log's key and refuses it with the live one. Issue 32: a
 * completed test transaction yields a signed PDF and an audit trail sealed with the TEST seal and the
 * test log's cert.json, every page marked TEST, which pyHanko does not trust under the live roots; the
 * completion mail (marked TEST) arrives in Mailpit and its link downloads the same PDF; the live log
 * and the quota stay untouched.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send as sendTo } from '../support/http.js';
import { mailsTo } from '../support/identity-helpers.js';
import {
  extractCertJson,
  pdfText,
  pyhankoValidate,
  run,
  signetVerify as signetVerifyFile,
} from '../../services/ledger/test/fixtures/signed-pdf-checks.js';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'packages/verify/src/cli.ts');
const suffix = randomBytes(3).toString('hex');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** For callbacks that run in the page; test/ has no DOM types. */
type PageGlobal = { document: { getElementById(id: string): { textContent: string | null } | null } };

function signetVerify(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@signet/source', '--import', 'tsx', CLI, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}-${suffix}@example.com`;

type Created = { id: number; reference: string; status: string; test: boolean; pdf: Buffer };

describe('test mode: test-mode API keys, free and apart from live data, sealed in the test log', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let b: Account;
  let testKey: string;
  let testKeyB: string;
  const tests: Created[] = [];
  let live: Created;
  let dir: string;

  const call = (method: string, path: string, key: string, init: { parts?: Part[]; json?: unknown } = {}) =>
    sendTo(stack.gatewayUrl, method, path, { ...init, apiKey: key });

  async function create(key: string, name: string): Promise<Created> {
    const pdf = tinyPdf(randomUUID());
    const parts: Part[] = [
      { name: 'signer_name', value: name },
      { name: 'signer_email', value: emailOf(name) },
      { name: 'document', data: pdf, filename: 'c.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
    ];
    const r = await call('POST', '/api/transactions', key, { parts });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id, reference: r.body.reference, status: r.body.status, test: r.body.test, pdf };
  }

  async function newTestKey(acct: Account): Promise<string> {
    const auth = { token: acct.token };
    const csrf = (await sendTo(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const r = await sendTo(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ mode: 'test' });
    expect(r.body.key).toMatch(/^sgn_test_[A-Za-z0-9]{48}$/);
    expect(r.body.prefix).toBe((r.body.key as string).slice(0, 17));
    return r.body.key as string;
  }

  const pki = infra().TSA_URL ? (infra().DEV_PKI_DIR ?? '') : '';
  const usedThisMonth = async (key: string) => (await call('POST', '/api/auth/me', key)).body.monthly_used as number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-testmode-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'TMODE',
        BUCKET_DOCUMENTS: `testmode-docs-${suffix}`,
        BUCKET_REFERENCES: `testmode-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
        // Sealing on (dev CA seal, local TSA): live PDFs as usual, test PDFs with the TEST seal (issue 32).
        ...(pki
          ? {
              LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
              LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
              LEDGER_TSA_URLS: infra().TSA_URL!,
              BUCKET_SIGNED: `testmode-signed-${suffix}`,
            }
          : {}),
      },
    });
    [a, b] = await Promise.all([
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'tester' }),
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'other' }),
    ]);
    [testKey, testKeyB] = await Promise.all([newTestKey(a), newTestKey(b)]);
    for (let i = 0; i < 20; i += 5)
      tests.push(...(await Promise.all(Array.from({ length: 5 }, (_, k) => create(testKey, `Test Signer ${i + k}`)))));
    live = await create(a.apiKey, 'Live Signer');
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keys: the dashboard lists the mode; an unknown mode is a 400 and makes no key', async () => {
    const auth = { token: a.token };
    const csrf = (await sendTo(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const keys = (await sendTo(stack.gatewayUrl, 'GET', '/api/admin/api-keys', auth)).body.api_keys as { mode: string }[];
    expect(keys.map((k) => k.mode).sort()).toEqual(['live', 'test']);
    const bad = await sendTo(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'x', mode: 'sandbox' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/mode/);
    expect((await sendTo(stack.gatewayUrl, 'GET', '/api/admin/api-keys', auth)).body.api_keys).toHaveLength(2);
  });

  it('a test key creates 20 transactions on a Free account without touching its quota', async () => {
    expect(tests).toHaveLength(20);
    for (const t of tests) expect(t).toMatchObject({ status: 'created', test: true });
    expect(live.test).toBe(false);
    const me = (await call('POST', '/api/auth/me', a.apiKey)).body;
    expect(me).toMatchObject({ plan: 'Free', monthly_limit: 3 });
    // Only the one live transaction used a signature.
    expect(await usedThisMonth(a.apiKey)).toBe(1);

    // The signer's mail says TEST for a test transaction, and nothing of it for a live one.
    const subjectTo = (name: string) =>
      eventually(async () => {
        const q = encodeURIComponent(`to:"${emailOf(name)}"`);
        const list = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${q}`)).json()) as {
          messages?: { Subject: string }[];
        };
        return list.messages?.[0]?.Subject;
      }, 20_000);
    expect(await subjectTo('Test Signer 0')).toMatch(/^\[TEST\] /);
    expect(await subjectTo('Live Signer')).not.toMatch(/TEST/);
  });

  it('live and test data never mix: each mode lists and finds only its own (404 for the other)', async () => {
    const liveList = await call('GET', '/api/transactions?limit=100', a.apiKey);
    expect(liveList.status).toBe(200);
    expect((liveList.body as Created[]).map((t) => t.id)).toEqual([live.id]);
    const testList = await call('GET', '/api/transactions?limit=100', testKey);
    expect((testList.body as Created[]).map((t) => t.id).sort((x, y) => x - y)).toEqual(
      tests.map((t) => t.id).sort((x, y) => x - y),
    );
    expect((testList.body as { test: boolean }[]).every((t) => t.test)).toBe(true);
    // The dashboard (a session) is live only.
    const session = await sendTo(stack.gatewayUrl, 'GET', '/api/transactions?limit=100', { token: a.token });
    expect((session.body as Created[]).map((t) => t.id)).toEqual([live.id]);

    expect((await call('GET', `/api/transactions/${tests[0]!.id}`, a.apiKey)).status).toBe(404);
    expect((await call('GET', `/api/transactions/${live.id}`, testKey)).status).toBe(404);
    const detail = await call('GET', `/api/transactions/${tests[0]!.id}`, testKey);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: tests[0]!.id, test: true });
    // Another account's test key sees none of them.
    expect((await call('GET', `/api/transactions/${tests[0]!.id}`, testKeyB)).status).toBe(404);
    expect((await call('GET', '/api/transactions', testKeyB)).body).toEqual([]);
    // The CSV export follows the mode too.
    const csv = await call('GET', '/api/transactions/export.csv', a.apiKey);
    expect(csv.text).toContain(live.reference);
    expect(csv.text).not.toContain(tests[0]!.reference);
  });

  it('the complete route answers 404 for a live key, a live transaction and another owner; 400 for a bad outcome', async () => {
    const path = (id: number) => `/api/transactions/${id}/test/complete`;
    const live404 = await call('POST', path(tests[1]!.id), a.apiKey, { json: { outcome: 'verified' } });
    expect(live404.status).toBe(404);
    expect(live404.body).toEqual({ detail: 'no such transaction' });
    expect((await call('POST', path(live.id), testKey, { json: { outcome: 'verified' } })).status).toBe(404);
    expect((await call('POST', path(live.id), a.apiKey, { json: { outcome: 'verified' } })).status).toBe(404);
    expect((await call('POST', path(tests[1]!.id), testKeyB, { json: { outcome: 'verified' } })).status).toBe(404);
    const bad = await call('POST', path(tests[1]!.id), testKey, { json: { outcome: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/outcome/);
    // Nothing changed.
    expect((await call('GET', `/api/transactions/${tests[1]!.id}`, testKey)).body.status).toBe('created');
    expect((await call('GET', `/api/transactions/${live.id}`, a.apiKey)).body.status).toBe('created');
  });

  it('test creations are bounded by a rate limit of their own (120 a minute per account), not by the quota', async () => {
    const statuses: number[] = [];
    const reply: { status: number; retry: string | null; detail?: string }[] = [];
    for (let i = 0; i < 13 && !statuses.includes(429); i++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const parts: Part[] = [
            { name: 'signer_name', value: `Burst ${i * 10 + k}` },
            { name: 'signer_email', value: `burst-${i * 10 + k}-${suffix}@example.com` },
            { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
            { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
          ];
          const r = await call('POST', '/api/transactions', testKeyB, { parts });
          reply.push({ status: r.status, retry: r.headers.get('retry-after'), detail: r.body?.detail });
          return r.status;
        }),
      );
      statuses.push(...batch);
    }
    expect(statuses.filter((x) => x === 201)).toHaveLength(120);
    const limited = reply.find((r) => r.status === 429)!;
    expect(limited.retry).toMatch(/^\d+$/);
    expect(limited.detail).toMatch(/too many requests/);
    // The live key of the same account is not limited by it (its quota bounds it).
    expect((await create(b.apiKey, 'Live After Burst')).test).toBe(false);
  }, 120_000);

  it('failed: the test transaction fails, and cannot be completed again', async () => {
    const t = tests[2]!;
    const r = await call('POST', `/api/transactions/${t.id}/test/complete`, testKey, { json: { outcome: 'failed' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id: t.id, status: 'failed', test: true });
    const again = await call('POST', `/api/transactions/${t.id}/test/complete`, testKey, { json: { outcome: 'verified' } });
    expect(again.status).toBe(409);
  });

  it('verified: the certificate is sealed in the test log; it verifies with the test key and not the live one', async () => {
    const t = tests[3]!;
    const r = await call('POST', `/api/transactions/${t.id}/test/complete`, testKey, { json: { outcome: 'verified' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ test: true });
    await eventually(
      async () => (await call('GET', `/api/transactions/${t.id}`, testKey)).body.status === 'ledger_issued',
      30_000,
    );

    const sha = createHash('sha256').update(t.pdf).digest('hex');
    const prefix = sha.slice(0, 16);
    const verified = await eventually(async () => {
      const v = await sendTo(stack.gatewayUrl, 'GET', `/api/verify/${t.reference}/${prefix}`);
      return v.status === 200 ? v.body : undefined;
    }, 30_000);
    expect(verified).toMatchObject({ valid: true, reference: t.reference, log: 'test' });

    const bundle = await sendTo(stack.gatewayUrl, 'GET', `/api/ledger/proof/${t.reference}?hash=${prefix}`);
    expect(bundle.status, bundle.text).toBe(200);
    const testPk = (await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/public-key?log=test')).body;
    const livePk = (await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/public-key')).body;
    expect(testPk.origin).not.toBe(livePk.origin);
    expect(testPk.verifier_key).not.toBe(livePk.verifier_key);
    // The checkpoints name their log: the test log holds the certificate, the live log holds nothing.
    const testCp = (await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/checkpoint?log=test')).body;
    expect(testCp.origin).toBe(testPk.origin);
    expect(testCp.log).toBe('test');
    const history = (await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/checkpoints?log=test')).body;
    expect(history.log).toBe('test');
    expect(history.checkpoints.at(-1).checkpoint.split('\n')[0]).toBe(testPk.origin);
    expect(testCp.tree_size).toBeGreaterThanOrEqual(1);
    expect((bundle.body as { checkpoint: string }).checkpoint.split('\n')[0]).toBe(testPk.origin);
    expect((await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/checkpoint')).body.tree_size).toBe(0);
    expect((await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/checkpoint?log=other')).status).toBe(400);

    const certPath = join(dir, 'cert.json');
    const pdfPath = join(dir, 'document.pdf');
    writeFileSync(certPath, bundle.text);
    writeFileSync(pdfPath, t.pdf);
    const ok = await signetVerify([certPath, pdfPath, '--key', testPk.verifier_key]);
    expect(ok.out).toContain(`VALID certificate ${t.reference}`);
    expect(ok.code).toBe(0);
    const refused = await signetVerify([certPath, pdfPath, '--key', livePk.verifier_key]);
    expect(refused.out).toContain('NOT VALID');
    expect(refused.code).toBe(1);
    // The certificate of completion says TEST; a live key does not get it.
    expect((await call('GET', `/api/transactions/${t.id}/certificate.pdf`, a.apiKey)).status).toBe(404);
    const pdfRes = await fetch(`${stack.gatewayUrl}/api/transactions/${t.id}/certificate.pdf`, {
      headers: { 'x-api-key': testKey },
    });
    expect(pdfRes.status).toBe(200);
    const certPdf = join(dir, 'certificate.pdf');
    writeFileSync(certPdf, Buffer.from(await pdfRes.arrayBuffer()));
    const text = execFileSync('pdftotext', [certPdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('TEST Certificate of completion');
    expect(text).toContain('no real signing took place');

    // Still free: completing and sealing used no signature.
    expect(await usedThisMonth(a.apiKey)).toBe(1);

    // The public /verify page says TEST and checks the bundle against the test log's key.
    if (existsSync(CHROMIUM)) {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        await page.goto(`${stack.gatewayUrl}/verify`);
        await page.fill('#ref', t.reference);
        await page.setInputFiles('#pdf', { name: 'document.pdf', mimeType: 'application/pdf', buffer: t.pdf });
        await page.waitForFunction(
          () =>
            /^(TEST|Verified|Not verified)/.test(
              (globalThis as unknown as PageGlobal).document.getElementById('result')?.textContent ?? '',
            ),
          null,
          { timeout: 15_000 },
        );
        expect(await page.textContent('#result')).toBe(`TEST certificate, verified in the test log: ${t.reference}`);
        const checks = await page.$$eval('#checks li', (lis) => lis.map((li) => `${li.className} ${li.textContent}`));
        expect(checks.filter((c) => c.startsWith('bad'))).toEqual([]);
        expect(checks.some((c) => c.startsWith('ok') && c.includes(testPk.origin))).toBe(true);
      } finally {
        await browser.close();
      }
    }
  }, 90_000);

  it('verified: a signed PDF and an audit trail marked TEST on every page, sealed with the TEST seal, and the completion mail', async () => {
    expect(pki, 'no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)').not.toBe('');
    // A document with a page of its own (the banner goes on it too, in an update after revision 1).
    const onePage = Buffer.from(
      `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\n% ${randomUUID()}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    );
    const name = 'Test Signer Paged';
    const made = await call('POST', '/api/transactions', testKey, {
      parts: [
        { name: 'signer_name', value: name },
        { name: 'signer_email', value: emailOf(name) },
        { name: 'document', data: onePage, filename: 'paged.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(made.status, made.text).toBe(201);
    const t = { id: made.body.id as number, reference: made.body.reference as string, pdf: onePage };
    const used = await usedThisMonth(a.apiKey);
    const r = await call('POST', `/api/transactions/${t.id}/test/complete`, testKey, { json: { outcome: 'verified' } });
    expect(r.status, r.text).toBe(200);
    const signedUrl = `${stack.gatewayUrl}/api/transactions/${t.id}/signed.pdf`;
    const download = async (url: string, key?: string) => {
      const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
      if (res.status === 409) return undefined;
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      return Buffer.from(await res.arrayBuffer());
    };
    const signed = await eventually(() => download(signedUrl, testKey), 90_000, 500);
    expect((await fetch(signedUrl, { headers: { 'x-api-key': a.apiKey } })).status).toBe(404);

    // Revision 1 is the upload, byte for byte; every page (document and audit trail) says TEST.
    expect(signed.subarray(0, t.pdf.length).equals(t.pdf)).toBe(true);
    // GET /api/verify finds it by the signed PDF's own hash too (as a live one is), and says TEST.
    const signedSha = createHash('sha256').update(signed).digest('hex');
    for (const hash of [signedSha.slice(0, 16), signedSha]) {
      const byPdf = await sendTo(stack.gatewayUrl, 'GET', `/api/verify/${t.reference}/${hash}`);
      expect(byPdf.status, byPdf.text).toBe(200);
      expect(byPdf.body).toMatchObject({ valid: true, reference: t.reference, log: 'test' });
    }
    const file = join(dir, 'test-signed.pdf');
    writeFileSync(file, signed);
    const pageTexts = async (path: string) => {
      const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [path])).out)?.[1]);
      expect(pages).toBeGreaterThan(0);
      return Promise.all(
        Array.from(
          { length: pages },
          async (_, i) => (await run('pdftotext', ['-f', `${i + 1}`, '-l', `${i + 1}`, path, '-'])).out,
        ),
      );
    };
    const signedPages = await pageTexts(file);
    expect(signedPages.length, 'the document’s page and the audit trail').toBeGreaterThan(1);
    for (const page of signedPages) expect(page.replace(/\s+/g, ' ')).toContain('TEST — not a valid signature');
    expect(await pdfText(file)).toContain(name);

    // Sealed with the TEST seal: pyHanko trusting the live roots does not call it trusted or valid.
    const root = join(pki, 'certs/root.pem');
    const v = await pyhankoValidate(file, root);
    expect(v.code, v.out).not.toBe(0);
    expect(v.out).not.toContain('The signature is judged VALID');
    expect(v.out).toContain('Signet TEST seal');
    // Its cert.json is the test log's: signet-verify passes the evidence with the test key, fails the seal under the live roots.
    const cert = JSON.parse(await extractCertJson(file)) as { checkpoint: string; certificate: { reference: string } };
    const testPk = (await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/public-key?log=test')).body;
    expect(cert.checkpoint.split('\n')[0]).toBe(testPk.origin);
    expect(cert.certificate.reference).toBe(t.reference);
    const offline = await signetVerifyFile(join(import.meta.dirname, '../..'), [
      file,
      '--key',
      testPk.verifier_key,
      '--roots',
      root,
    ]);
    expect(offline.code, offline.out).toBe(1);
    for (const line of ['PASS coverage', 'PASS integrity', 'PASS document', 'PASS evidence inclusion'])
      expect(offline.out).toContain(line);

    // The audit trail on its own, marked TEST on every page.
    const audit = (await download(`${stack.gatewayUrl}/api/transactions/${t.id}/audit-trail.pdf`, testKey))!;
    writeFileSync(join(dir, 'test-audit.pdf'), audit);
    for (const page of await pageTexts(join(dir, 'test-audit.pdf')))
      expect(page.replace(/\s+/g, ' ')).toContain('TEST — not a valid signature');

    // The completion mail arrives, says TEST, and its link downloads the same bytes.
    const mail = await eventually(async () => (await mailsTo(emailOf(name))).find((m) => /Completed/.test(m.Subject)), 60_000);
    expect(mail.Subject).toMatch(/^\[TEST\] Completed: /);
    const body = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${mail.ID}`)).json()) as { Text: string };
    expect(body.Text).toMatch(/^TEST: this is a test-mode transaction/);
    const link = /https?:\/\/\S+\/api\/downloads\/\S+/.exec(body.Text)?.[0];
    expect(link, body.Text).toBeDefined();
    const viaMail = await download(`${stack.gatewayUrl}${new URL(link!).pathname}`);
    expect(viaMail!.equals(signed)).toBe(true);

    // Nothing live: the live log is empty, the quota unchanged.
    expect((await sendTo(stack.gatewayUrl, 'GET', '/api/ledger/checkpoint')).body.tree_size).toBe(0);
    expect(await usedThisMonth(a.apiKey)).toBe(used);
  }, 180_000);
});
