/**
 * The signed document through the gateway only (issue 17): after a real ceremony with a generated
 * genuine capture, the owner downloads GET /api/transactions/{id}/signed.pdf — the original PDF, its
 * audit trail and cert.json, PAdES-sealed with a timestamp from the local TSA — and the outside tools
 * accept it: pyHanko (trusting the dev CA), pdfsig, qpdf, signet-verify on the embedded cert.json.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/ceremony-helpers.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { makeGenuineCapture, type ServerTimeline } from '../../services/biometrics/test/corpus/make-corpus.js';
import {
  extractCertJson,
  pdfsig,
  pdfText,
  pyhankoValidate,
  qpdfCheck,
  signetVerify,
} from '../../services/ledger/test/fixtures/signed-pdf-checks.js';

type Actions = NonNullable<Parameters<typeof makeGenuineCapture>[1]>;

const root = join(import.meta.dirname, '../..');
const SEED = 'signature-e2e-seed-v1';

describe('the signed PDF of a completed transaction, downloaded through the gateway', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let dir: string;
  const pdf = tinyPdf(`Signet signed PDF ${randomUUID()}`);
  const sha = createHash('sha256').update(pdf).digest('hex');
  const ip = { 'x-forwarded-for': '10.77.0.2' };
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
        { name: 'signer_email', value: `jan-${randomUUID().slice(0, 8)}@example.com` },
        { name: 'document', filename: 'Umowa.pdf', contentType: 'application/pdf', data: pdf },
        { name: 'reference', filename: 'reference.jpg', contentType: 'image/jpeg', data: readFileSync(reference) },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { id, token, reference: certRef } = created.body as { id: number; token: string; reference: string };
    const signedUrl = `${stack.gatewayUrl}/api/transactions/${id}/signed.pdf`;
    expect((await fetch(signedUrl, { headers: owner })).status).toBe(409); // not issued yet

    // The signer's ceremony, as in signature.test.ts.
    expect(
      (
        await send(stack.gatewayUrl, 'POST', `/api/sign/${token}/consent`, {
          headers: ip,
          json: { consent_text_version: 'consent-v1' },
        })
      ).status,
    ).toBeLessThan(300);
    const challenge = await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/challenge`, { headers: ip });
    expect(challenge.status).toBe(200);
    const { actions, nonce, words, timeline } = challenge.body as {
      actions: Actions;
      nonce: string;
      words: string[];
      timeline: ServerTimeline;
    };
    const media = await makeGenuineCapture(join(dir, 'capture'), actions, { words, serverTimeline: timeline });
    const cap = await send(stack.gatewayUrl, 'POST', `/api/sign/${token}/capture`, {
      headers: ip,
      parts: [
        { name: 'nonce', value: nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: readFileSync(media.video!) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: readFileSync(media.finalFrame!) },
      ],
    });
    expect(cap.status, JSON.stringify(cap.body)).toBeLessThan(300);
    const detail = await eventually(
      async () => {
        const r = await send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { headers: owner });
        const verdictFailed = (r.body.events as { type: string }[]).some((e) => e.type === 'verdict_failed');
        return r.body.status === 'ledger_issued' || r.body.status === 'failed' || verdictFailed ? r.body : undefined;
      },
      240_000,
      1000,
    );
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
});
