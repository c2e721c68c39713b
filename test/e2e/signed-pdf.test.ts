/**
 * The signed document through the gateway only (issue 17): after a real ceremony with a generated
 * genuine capture, the owner downloads GET /api/transactions/{id}/signed.pdf — the original PDF, its
 * audit trail and cert.json, PAdES-sealed with a timestamp from the local TSA — and the outside tools
 * accept it: pyHanko (trusting the dev CA), pdfsig, qpdf, signet-verify on the embedded cert.json.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/ceremony-helpers.js';
import { mailsTo } from '../support/identity-helpers.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { launchChromium } from './browser/chromium.js';
import { makeGenuineCapture } from '../../services/biometrics/test/corpus/make-corpus.js';
import { awaitOutcome, consentAndCapture, type Gateway } from '../support/predicted-capture.js';
import {
  extractCertJson,
  pdfsig,
  pdfText,
  pyhankoValidate,
  qpdfCheck,
  signetVerify,
} from '../../services/ledger/test/fixtures/signed-pdf-checks.js';

const root = join(import.meta.dirname, '../..');
const SEED = 'signature-e2e-seed-v1';
describe('the signed PDF of a completed transaction, downloaded through the gateway', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let dir: string;
  const pdf = tinyPdf(`Signet signed PDF ${randomUUID()}`);
  const sha = createHash('sha256').update(pdf).digest('hex');
  const ip = { 'x-forwarded-for': '10.77.0.2', 'user-agent': 'SignetE2E/1.0 (audit trail)' };
  const signerEmail = `jan-${randomUUID().slice(0, 8)}@example.com`;
  // What the first test leaves for the next ones: the transaction, its reference and its signed PDF.
  const done: { id?: number; certRef?: string; signed?: Buffer } = {};
  const pki = infra().DEV_PKI_DIR ?? '';

  beforeAll(async () => {
    if (!infra().TSA_URL || !pki)
      throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    dir = mkdtempSync(join(tmpdir(), 'signet-signed-pdf-e2e-'));
    // The fixed challenge draw of signature.test.ts (CHALLENGE_TEST_SEED, refused in production), and
    // the ledger's seal: the dev CA's sealing certificate and key and the local TSA.
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'], {
      env: {
        CHALLENGE_TEST_SEED: SEED,
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: infra().TSA_URL!,
        VERIFY_TRUST_ROOTS: join(pki, 'certs/root.pem'),
        VERIFY_SIGNED_PDF_MAX_BYTES: String(30 * 1024 * 1024),
        // A signer's erasure request (issue 21) falls due after 3 s here instead of 7 days.
        ERASURE_NOTICE_SECONDS: '3',
        ERASURE_INTERVAL_MS: '1000',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Łódź Sp. z o.o.', tag: 'e2e' });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is sealed once, validates with pyHanko, pdfsig and qpdf, carries a verifiable cert.json, and breaks when a byte changes', async () => {
    const owner = { 'x-api-key': acct.apiKey };
    const { reference } = await makeGenuineCapture(join(dir, 'ref'), null);
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: owner,
      parts: [
        { name: 'signer_name', value: 'Jan Łukasiewicz' },
        { name: 'signer_email', value: signerEmail },
        // The single upload below proves only "recorded"; the API requires live unless told otherwise.
        { name: 'required_assurance', value: 'recorded' },
        { name: 'document', filename: 'Umowa.pdf', contentType: 'application/pdf', data: pdf },
        { name: 'reference', filename: 'reference.jpg', contentType: 'image/jpeg', data: readFileSync(reference) },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { id, token, reference: certRef } = created.body as { id: number; token: string; reference: string };
    const signedUrl = `${stack.gatewayUrl}/api/transactions/${id}/signed.pdf`;
    expect((await fetch(signedUrl, { headers: owner })).status).toBe(409); // not issued yet

    // The signer opens the link from the mail (so the audit trail has the mail's time), then the
    // ceremony, as in signature.test.ts.
    await eventually(async () => ((await mailsTo(signerEmail)).length ? true : undefined), 30_000);
    await new Promise((r) => setTimeout(r, 1000)); // the mail is recorded right after SMTP accepted it
    // Rendered for the test seed's predicted draw before it is asked for (test/support/predicted-capture.ts).
    const gateway: Gateway = (method, path, init) => send(stack.gatewayUrl, method, path, init);
    const cap = await consentAndCapture({ gateway, id, token, seed: SEED, dir, headers: ip });
    expect(cap.status, JSON.stringify(cap.body)).toBeLessThan(300);
    const detail = await awaitOutcome(gateway, id, owner, 240_000);
    expect(detail.status, `the verdict did not pass: ${JSON.stringify(detail)}`).toBe('ledger_issued');

    // The owner: 409 until sealed, then the same bytes on every download; another sender gets 404.
    const download = async () => {
      const r = await fetch(signedUrl, { headers: owner });
      if (r.status === 409) return undefined;
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      return Buffer.from(await r.arrayBuffer());
    };
    const signed = await eventually(download, 120_000, 500);
    expect((await download())!.equals(signed)).toBe(true);
    Object.assign(done, { id, certRef, signed });
    const other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Other Ltd', tag: 'e2e-other' });
    expect((await fetch(signedUrl, { headers: { 'x-api-key': other.apiKey } })).status).toBe(404);

    const file = join(dir, 'signed.pdf');
    writeFileSync(file, signed);
    const v = await pyhankoValidate(file, join(pki, 'certs/root.pem'));
    expect(v.code, v.out).toBe(0);
    for (const line of [
      'The signature is judged VALID',
      'The signature covers the entire file',
      'This timestamp is backed by a time stamping authority',
    ])
      expect(v.out).toContain(line);
    const sig = await pdfsig(file);
    expect(sig.out.match(/Signature #\d+:/g)?.length, sig.out).toBe(1);
    expect(sig.out).toContain('Signature Validation: Signature is Valid.');
    expect((await qpdfCheck(file)).code).toBe(0);
    const text = await pdfText(file);
    for (const s of ['Jan Łukasiewicz', 'Łódź Sp. z o.o.', sha, certRef, 'Umowa.pdf']) expect(text).toContain(s);

    // The embedded cert.json verifies offline against the original document.
    writeFileSync(join(dir, 'cert.json'), await extractCertJson(file));
    writeFileSync(join(dir, 'document.pdf'), pdf);
    const key = (await (await fetch(`${stack.gatewayUrl}/api/ledger/public-key`)).json()) as { verifier_key: string };
    const ok = await signetVerify(root, [join(dir, 'cert.json'), join(dir, 'document.pdf'), '--key', key.verifier_key]);
    expect(ok.out).toContain(`VALID certificate ${certRef}`);
    expect(ok.code).toBe(0);

    // Issue 32: the upload is the signed PDF's first revision, byte for byte, so the PDF alone verifies
    // offline (seal, timestamp, revision 1 against the certified hash, cert.json), and GET /api/verify
    // finds the certificate by the signed PDF's own hash as well as by the original's.
    expect(signed.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const alone = await signetVerify(root, [file, '--key', key.verifier_key, '--roots', join(pki, 'certs/root.pem')]);
    expect(alone.code, alone.out).toBe(0);
    for (const line of ['PASS coverage', 'PASS integrity', 'PASS timestamp', 'PASS document', 'PASS evidence inclusion'])
      expect(alone.out).toContain(line);
    const signedSha = createHash('sha256').update(signed).digest('hex');
    for (const hash of [signedSha.slice(0, 16), signedSha, sha.slice(0, 16)]) {
      const r = await fetch(`${stack.gatewayUrl}/api/verify/${certRef}/${hash}`);
      expect(r.status, hash).toBe(200);
      expect(((await r.json()) as { document_sha256_prefix: string }).document_sha256_prefix).toBe(sha.slice(0, 16));
    }

    // One byte changed inside the signed range (a letter of the signature's reason) fails pyHanko.
    const at = signed.indexOf(Buffer.from(`Signet certificate ${certRef}`));
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(signed);
    tampered[at] = 's'.charCodeAt(0);
    writeFileSync(join(dir, 'tampered.pdf'), tampered);
    const bad = await pyhankoValidate(join(dir, 'tampered.pdf'), join(pki, 'certs/root.pem'));
    expect(bad.code, bad.out).not.toBe(0);
    expect(bad.out).not.toContain('The signature is judged VALID');
  }, 600_000);
  it('serves the audit-trail PDF stored once: the same bytes twice, the recorded trail, the owner only', async () => {
    expect(done.id, 'the first test did not complete a transaction').toBeDefined();
    const owner = { 'x-api-key': acct.apiKey };
    const url = `${stack.gatewayUrl}/api/transactions/${done.id}/audit-trail.pdf`;
    const first = await fetch(url, { headers: owner });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    const a = Buffer.from(await first.arrayBuffer());
    const b = Buffer.from(await (await fetch(url, { headers: owner })).arrayBuffer());
    expect(b.equals(a)).toBe(true);
    expect(a.equals(done.signed!)).toBe(false);
    const file = join(dir, 'audit-trail.pdf');
    writeFileSync(file, a);
    expect((await qpdfCheck(file)).code).toBe(0);
    const text = await pdfText(file);
    // As the ceremony recorded it: the signer, the consent text version, address and browser, the times.
    for (const s of [
      'Audit trail',
      'Jan Łukasiewicz',
      signerEmail,
      'Łódź Sp. z o.o.',
      sha,
      done.certRef!,
      'consent-v1',
      '10.77.0.2',
      'SignetE2E/1.0',
    ])
      expect(text, s).toContain(s);
    for (const label of ['Link sent (UTC)', 'Link opened (UTC)', 'Consented (UTC)', 'Capture submitted (UTC)', 'Verified (UTC)'])
      expect(text).toMatch(new RegExp(`${label.replace(/[()]/g, '\\$&')}\\s+\\d{4}-\\d{2}-\\d{2}T`));
    const other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Other Ltd', tag: 'e2e-other2' });
    const refused = await fetch(url, { headers: { 'x-api-key': other.apiKey } });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { detail: string }).detail).toBeTruthy();
  }, 120_000);

  it('checks a dropped signed PDF on /verify: every check passes for the download; changed, unsigned, junk and oversized files are refused', async () => {
    expect(done.signed, 'the first test did not complete a transaction').toBeDefined();
    const url = `${stack.gatewayUrl}/api/verify/signed-pdf`;
    const post = (body: Buffer, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/pdf', ...headers }, body: new Uint8Array(body) });
    const ok = await post(done.signed!);
    const report = (await ok.json()) as {
      valid: boolean;
      reference: string;
      log: string;
      timestamp: string;
      checks: { name: string; ok: boolean }[];
    };
    expect(ok.status, JSON.stringify(report)).toBe(200);
    expect(report).toMatchObject({ valid: true, reference: done.certRef, log: 'live', sealed_by: 'Signet Dev Document Seal' });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['coverage', 'integrity', 'timestamp', 'certificate', 'evidence inclusion', 'consistency']),
    );

    // One changed byte inside the signed range: 400, the seal is invalid.
    const tampered = Buffer.from(done.signed!);
    tampered[tampered.indexOf(Buffer.from(`Signet certificate ${done.certRef}`))] = 's'.charCodeAt(0);
    const bad = await post(tampered);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/seal is invalid.*changed after sealing/);
    // The original, unsigned: 400.
    const unsigned = await post(pdf);
    expect(unsigned.status).toBe(400);
    expect(((await unsigned.json()) as { detail: string }).detail).toContain('no signature');
    // 20 MB of junk: refused at once from its first bytes; a declared size over the cap: 413 at once.
    const started = Date.now();
    const junk = await post(Buffer.alloc(20 * 1024 * 1024, 0x41));
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { detail: string }).detail).toContain('not a PDF');
    expect(Date.now() - started).toBeLessThan(5_000);
    const big = await post(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(31 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { detail: string }).detail).toContain('at most 30 MB');

    // The page (built by packages/web) offers the drop and its script sends a signed PDF to this route;
    // its CSP allows only its own files, no inline script.
    const page = await fetch(`${stack.gatewayUrl}/verify`);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).toContain('id="pdf"');
    const src = /<script[^>]*\ssrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(src, 'the page names its script').toBeDefined();
    expect(await (await fetch(`${stack.gatewayUrl}${src}`)).text()).toContain('/api/verify/signed-pdf');

    // In a browser: the signed PDF chosen on /verify is checked by the server and every check is listed.
    writeFileSync(join(dir, 'dropped.pdf'), done.signed!);
    const browser = await launchChromium(join(dir, 'chromium'));
    try {
      const tab = await browser.newPage();
      await tab.goto(`${stack.gatewayUrl}/verify`);
      await tab.locator('#pdf').setInputFiles(join(dir, 'dropped.pdf'));
      await tab.locator('#result.ok').waitFor({ timeout: 30_000 });
      expect(await tab.locator('#result').textContent()).toBe(`Verified signed PDF: ${done.certRef}`);
      const listed = await tab.locator('#checks li').allTextContents();
      expect(listed.length).toBe(report.checks.length);
      expect(listed.every((t) => t.startsWith('\u2713'))).toBe(true);
      expect(await tab.locator('#ref').inputValue()).toBe(done.certRef);
      await tab.locator('#pdf').setInputFiles(join(dir, 'tampered.pdf'));
      await tab.locator('#result.bad').waitFor({ timeout: 30_000 });
      expect(await tab.locator('#result').textContent()).toContain('Not verified: the seal is invalid');
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('mails the signer and the sender a link that downloads the signed PDF without an account; a bad or expired link does not', async () => {
    expect(done.id, 'the first test did not complete a transaction').toBeDefined();
    const mailpit = infra().MAILPIT_URL;
    const completionMails = async (to: string) => {
      const r = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${to}" subject:"Completed"`)}`);
      return ((await r.json()) as { messages: { ID: string }[] }).messages ?? [];
    };
    const linkOf = async (to: string) => {
      const [m] = await eventually(async () => {
        const ms = await completionMails(to);
        return ms.length ? ms : undefined;
      }, 60_000);
      const msg = (await (await fetch(`${mailpit}/api/v1/message/${m!.ID}`)).json()) as { Text: string; HTML: string };
      expect(msg.Text).toContain(done.certRef!);
      expect(msg.HTML).toContain('Łódź Sp. z o.o.');
      const link = /https?:\/\/\S+\/api\/downloads\/[\w.-]+/.exec(msg.Text)?.[0];
      expect(link, msg.Text).toBeDefined();
      return link!;
    };
    for (const to of [signerEmail, acct.email]) {
      const link = await linkOf(to);
      expect(link.startsWith(stack.gatewayUrl)).toBe(true);
      const r = await fetch(link); // no API key, no session
      expect(r.status, to).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await r.arrayBuffer()).equals(done.signed!)).toBe(true);
    }
    // One mail per recipient.
    expect(await completionMails(signerEmail)).toHaveLength(1);
    expect(await completionMails(acct.email)).toHaveLength(1);

    // A changed signature: 404 with a detail; a token this deployment did not sign neither works.
    const link = await linkOf(signerEmail);
    const token = link.split('/').at(-1)!;
    const [h, p, sig] = token.split('.');
    const flipped = `${h}.${p}.${sig!.startsWith('A') ? 'B' : 'A'}${sig!.slice(1)}`;
    for (const bad of [
      flipped,
      'not-a-token',
      `${h}.${Buffer.from(JSON.stringify({ sub: done.certRef, exp: 9e9 })).toString('base64url')}.${sig}`,
    ]) {
      const r = await fetch(`${stack.gatewayUrl}/api/downloads/${bad}`);
      expect(r.status, bad).toBe(404);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/download link/);
    }
    // Signed with the deployment's secret but expired: 401 with a detail.
    const jwt = (claims: Record<string, unknown>) => {
      const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const mac = createHmac('sha256', stack.secrets.DOWNLOAD_LINK_SECRET).update(`${head}.${body}`).digest('base64url');
      return `${head}.${body}.${mac}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const base = { iss: 'signet-transaction', aud: 'signet-download', sub: done.certRef };
    const expired = await fetch(`${stack.gatewayUrl}/api/downloads/${jwt({ ...base, iat: now - 7200, exp: now - 3600 })}`);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
    // The same secret and claims, valid: the link works (the check above failed on time alone).
    expect((await fetch(`${stack.gatewayUrl}/api/downloads/${jwt({ ...base, iat: now, exp: now + 600 })}`)).status).toBe(200);
    // Valid but for a reference with no signed PDF: 404.
    const unknown = await fetch(
      `${stack.gatewayUrl}/api/downloads/${jwt({ ...base, sub: 'SIG-TX-00000000', iat: now, exp: now + 600 })}`,
    );
    expect(unknown.status).toBe(404);
  }, 120_000);

  it('gives each signer an erasure link: opening it changes nothing, its button notifies the sender and erases after the notice', async () => {
    expect(done.id, 'the first test did not complete a transaction').toBeDefined();
    const mailpit = infra().MAILPIT_URL;
    const owner = { 'x-api-key': acct.apiKey };
    type LogEvent = { type: string; at: string; actor: string; detail: string };
    const eventsOf = async () =>
      (await send(stack.gatewayUrl, 'GET', `/api/transactions/${done.id}`, { headers: owner })).body.events as LogEvent[];
    const mails = async (query: string) => {
      const r = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(query)}`);
      return ((await r.json()) as { messages: { ID: string }[] }).messages ?? [];
    };
    const textOf = async (id: string) =>
      ((await (await fetch(`${mailpit}/api/v1/message/${id}`)).json()) as { Text: string }).Text;
    const [signerMail] = await mails(`to:"${signerEmail}" subject:"Completed"`);
    const [senderMail] = await mails(`to:"${acct.email}" subject:"Completed"`);
    const link = /https?:\/\/\S+\/privacy\/erasure\/[\w.-]+/.exec(await textOf(signerMail!.ID))?.[0];
    expect(link, 'the signer’s completion mail has no erasure link').toBeDefined();
    expect(await textOf(senderMail!.ID)).not.toContain('/privacy/erasure/');
    const token = link!.split('/').at(-1)!;

    // Opening the link (as a mail scanner would) shows the button and changes nothing.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain(done.certRef!);
    expect(html).toMatch(/<form method="post" action="\/privacy\/erasure\/[\w.-]+">/);
    expect((await eventsOf()).some((e) => e.type === 'biometrics_erasure_requested')).toBe(false);

    // Only a token signed for erasure works: a download token, a changed signature, junk: 404.
    const downloadToken = /\/api\/downloads\/([\w.-]+)/.exec(await textOf(signerMail!.ID))![1]!;
    const [h, p, sig] = token.split('.');
    for (const bad of [downloadToken, `${h}.${p}.${sig!.startsWith('A') ? 'B' : 'A'}${sig!.slice(1)}`, 'junk']) {
      const r = await fetch(`${stack.gatewayUrl}/privacy/erasure/${bad}`, { method: 'POST' });
      expect(r.status, bad).toBe(404);
    }
    // …nor does an erasure token download anything.
    expect((await fetch(`${stack.gatewayUrl}/api/downloads/${token}`)).status).toBe(404);
    expect((await eventsOf()).some((e) => e.type === 'biometrics_erasure_requested')).toBe(false);

    // The button: recorded, the sender told at once, erased after the 3 s notice with reason signer.
    const asked = Date.now();
    const first = await fetch(link!, { method: 'POST' });
    expect(first.status).toBe(202);
    expect(await first.text()).toMatch(/will be erased on/);
    const request = (await eventsOf()).filter((e) => e.type === 'biometrics_erasure_requested');
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ actor: 'signer' });
    const due = Date.parse(/due (\S+)$/.exec(request[0]!.detail)![1]!);
    expect(due - asked).toBeGreaterThan(1000);
    expect(due - asked).toBeLessThan(10_000);
    const notice = await eventually(async () => {
      const ms = await mails(`to:"${acct.email}" subject:"erasure"`);
      return ms.length ? ms : undefined;
    }, 30_000);
    const noticeText = await textOf(notice[0]!.ID);
    expect(noticeText).toContain(done.certRef!);
    expect(noticeText).toContain(signerEmail);
    const log = await eventually(
      async () => {
        const events = await eventsOf();
        return events.some((e) => e.type === 'media_erased') && events.some((e) => e.type === 'biometrics_erased')
          ? events
          : undefined;
      },
      60_000,
      1000,
    );
    const erased = log.find((e) => e.type === 'biometrics_erased')!;
    expect(erased).toMatchObject({ actor: 'signer' });
    expect(erased.detail).toMatch(/reason signer$/);
    expect(Date.parse(erased.at)).toBeGreaterThanOrEqual(due);
    expect(log.find((e) => e.type === 'media_erased')!.detail).toMatch(/reason signer$/);

    // Again: nothing changes, no second notice; the certificate still verifies.
    const again = await fetch(link!, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(await again.text()).toMatch(/was erased on/);
    expect((await eventsOf()).filter((e) => e.type === 'biometrics_erasure_requested')).toHaveLength(1);
    expect(await mails(`to:"${acct.email}" subject:"erasure"`)).toHaveLength(1);
    const verified = await send(stack.gatewayUrl, 'GET', `/api/verify/${done.certRef}/${sha.slice(0, 16)}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ valid: true });
  }, 120_000);
});
