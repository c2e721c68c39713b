/**
 * The owner's evidence (issue 17 item 6), through the gateway only: GET /api/transactions/{id}/evidence.json
 * is the proof bundle plus the openings of the media commitments (salt and media hashes); another
 * account gets 404, an unfinished transaction 409, and the public bundle never carries the openings.
 * signet-verify checks the openings against the certificate and a media file against them. Driven in
 * test mode (the signer consents on the signing page, then POST …/test/complete stands in for the capture),
 * so it runs without the biometrics service; the certificate is version 2: the document name, and the
 * consent's version and time and the hash of the attestation sentence the page showed.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { signetVerify } from '../../services/ledger/test/fixtures/signed-pdf-checks.js';

const root = join(import.meta.dirname, '../..');
const suffix = randomBytes(3).toString('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe("the owner's evidence bundle opens the media commitments", () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let b: Account;
  let keyA: string;
  let keyB: string;
  let dir: string;
  const pdf = tinyPdf(randomUUID());
  const photo = pngPhoto();
  let id: number;
  let reference: string;
  let token: string;
  const call = (method: string, path: string, apiKey: string, init: { parts?: Part[]; json?: unknown } = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, apiKey });

  async function testKey(acct: Account): Promise<string> {
    const auth = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const r = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'evidence', mode: 'test' },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-evidence-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'EVID',
        BUCKET_DOCUMENTS: `evidence-docs-${suffix}`,
        BUCKET_REFERENCES: `evidence-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    [a, b] = await Promise.all([
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'evidence' }),
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'evidence-other' }),
    ]);
    [keyA, keyB] = await Promise.all([testKey(a), testKey(b)]);
    const r = await call('POST', '/api/transactions', keyA, {
      parts: [
        { name: 'signer_name', value: 'Jan Łukasiewicz' },
        { name: 'signer_email', value: `jan-${suffix}@example.com` },
        { name: 'document', data: pdf, filename: 'Umowa.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: photo, filename: 'jan.png', contentType: 'image/png' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    ({ id, reference, token } = r.body as { id: number; reference: string; token: string });
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    writeFileSync(join(dir, 'photo.png'), photo);
    writeFileSync(join(dir, 'other.png'), Buffer.concat([photo, Buffer.from([0])]));
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 409 before the certificate is issued, and 404 for another account or a bad id', async () => {
    const early = await call('GET', `/api/transactions/${id}/evidence.json`, keyA);
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/issued/);
    expect((await call('GET', `/api/transactions/${id}/evidence.json`, keyB)).status).toBe(404);
    expect((await call('GET', '/api/transactions/abc/evidence.json', keyA)).status).toBe(404);
    expect((await send(stack.gatewayUrl, 'GET', `/api/transactions/${id}/evidence.json`)).status).toBe(401);
  });

  it('gives the owner the bundle with the openings, which signet-verify checks with the media', async () => {
    const page = { headers: { 'x-forwarded-for': '10.77.0.9' } };
    const summary = await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/summary`, page);
    expect(summary.status, summary.text).toBe(200);
    const consent = await send(stack.gatewayUrl, 'POST', `/api/sign/${token}/consent`, {
      ...page,
      json: { consent_text_version: 'consent-v1' },
    });
    expect(consent.status, consent.text).toBeLessThan(300);
    await eventually(async () => (await call('GET', `/api/transactions/${id}`, keyA)).body.status === 'consent_accepted', 30_000);
    const done = await call('POST', `/api/transactions/${id}/test/complete`, keyA, { json: { outcome: 'verified' } });
    expect(done.status, done.text).toBe(200);
    await eventually(async () => (await call('GET', `/api/transactions/${id}`, keyA)).body.status === 'ledger_issued', 60_000);
    const ev = await eventually(async () => {
      const r = await call('GET', `/api/transactions/${id}/evidence.json`, keyA);
      return r.status === 200 ? r : undefined;
    }, 30_000);
    expect(ev.headers.get('cache-control')).toBe('private, no-store');
    expect(ev.headers.get('content-disposition')).toBe(`attachment; filename="${reference}.evidence.json"`);
    const evidence = ev.body as {
      format: string;
      certificate: Record<string, unknown>;
      commitment_openings: { salt: string; signers: Record<string, string>[] };
    };
    expect(evidence.format).toBe('signet-certificate-bundle/v2');
    expect(evidence.certificate).toMatchObject({
      version: 2,
      reference,
      document_name: 'Umowa.pdf',
      document_sha256: sha256(pdf),
    });
    expect((evidence.certificate.signers as Record<string, unknown>[])[0]).toMatchObject({
      name: 'Jan Łukasiewicz',
      consent_text_version: 'consent-v1',
      attestation_text_sha256: sha256(Buffer.from(String(summary.body.attestation_text), 'utf8')),
      webauthn: false,
    });
    expect(summary.body.attestation_text).toContain('Umowa.pdf');
    expect(Date.parse(String((evidence.certificate.signers as Record<string, unknown>[])[0]!.consented_at))).toBeGreaterThan(0);
    expect(evidence.commitment_openings.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(evidence.commitment_openings.signers).toEqual([
      { video_sha256: '', frame_sha256: '', reference_sha256: sha256(photo) },
    ]);

    // The public bundle of the same certificate: the same certificate, no openings.
    const pub = await send(stack.gatewayUrl, 'GET', `/api/ledger/proof/${reference}?hash=${sha256(pdf).slice(0, 16)}`);
    expect(pub.status).toBe(200);
    expect(pub.body.certificate).toEqual(evidence.certificate);
    expect(pub.text).not.toContain('commitment_openings');
    expect(pub.text).not.toContain(evidence.commitment_openings.salt);

    // Offline, with the test log's key document as served.
    const keys = await send(stack.gatewayUrl, 'GET', '/api/ledger/public-key?log=test');
    writeFileSync(join(dir, 'keys.json'), keys.text);
    writeFileSync(join(dir, 'evidence.json'), ev.text);
    const ok = await signetVerify(root, [
      join(dir, 'evidence.json'),
      join(dir, 'doc.pdf'),
      '--key',
      join(dir, 'keys.json'),
      '--media',
      join(dir, 'photo.png'),
    ]);
    expect(ok.out).toContain('PASS commitments');
    expect(ok.out).toContain('PASS media');
    expect(ok.out).toContain(`VALID certificate ${reference}`);
    expect(ok.code).toBe(0);
    const other = await signetVerify(root, [
      join(dir, 'evidence.json'),
      join(dir, 'doc.pdf'),
      '--key',
      join(dir, 'keys.json'),
      '--media',
      join(dir, 'other.png'),
    ]);
    expect(other.out).toContain('FAIL media');
    expect(other.code).toBe(1);
    // An opening changed: the commitment no longer opens.
    const forged = { ...evidence, commitment_openings: { ...evidence.commitment_openings, salt: '0'.repeat(32) } };
    writeFileSync(join(dir, 'forged.json'), JSON.stringify(forged));
    const bad = await signetVerify(root, [join(dir, 'forged.json'), join(dir, 'doc.pdf'), '--key', join(dir, 'keys.json')]);
    expect(bad.out).toContain('FAIL commitments');
    expect(bad.code).toBe(1);
  }, 180_000);
});
