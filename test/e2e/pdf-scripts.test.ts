/**
 * Names in any script through the whole stack (issue 32 item 3), without a ceremony: an organisation
 * named in Arabic creates a test-mode transaction for signers named in Devanagari and Chinese,
 * completes it, and downloads certificate.pdf from the gateway. pdftotext reads every name back as
 * written (it printed "?" for each of these characters before), every font is embedded with a
 * Unicode map, and two downloads are the same bytes (they differed: pdf-lib stamped the time).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');
const ORGANISATION = 'شركة النور للتجارة';
const SIGNERS = ['श्रीमती प्रिया शर्मा', '王小明'];

/** Bidi marks poppler puts around right-to-left text and whitespace runs removed. */
const normal = (s: string) => s.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '').replace(/\s+/g, ' ');

describe('certificate.pdf through the gateway: an Arabic organisation, Devanagari and Chinese signers', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-pdf-scripts-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'SCRPT',
        BUCKET_DOCUMENTS: `scripts-docs-${suffix}`,
        BUCKET_REFERENCES: `scripts-refs-${suffix}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: ORGANISATION, tag: 'scripts' });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads every name back, embeds every font, and serves the same bytes twice', async () => {
    const auth = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const keyRes = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'scripts', mode: 'test' },
    });
    expect(keyRes.status, keyRes.text).toBe(201);
    const apiKey = keyRes.body.key as string;

    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey,
      parts: [
        {
          name: 'signers',
          value: JSON.stringify(SIGNERS.map((name, i) => ({ name, email: `s${i}-${suffix}@example.com` }))),
        },
        { name: 'document', filename: 'عقد.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
        ...SIGNERS.map((_, i) => ({ name: `signer_photo_${i}`, filename: 'f.png', contentType: 'image/png', data: pngPhoto() })),
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const done = await send(stack.gatewayUrl, 'POST', `/api/transactions/${id}/test/complete`, {
      apiKey,
      json: { outcome: 'verified' },
    });
    expect(done.status, done.text).toBe(200);
    await eventually(
      async () => (await send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { apiKey })).body.status === 'ledger_issued',
      60_000,
    );

    const download = async () => {
      const r = await fetch(`${stack.gatewayUrl}/api/transactions/${id}/certificate.pdf`, { headers: { 'x-api-key': apiKey } });
      expect(r.status).toBe(200);
      return Buffer.from(await r.arrayBuffer());
    };
    const pdf = await download();
    expect((await download()).equals(pdf), 'two downloads, the same bytes').toBe(true);

    const file = join(dir, 'certificate.pdf');
    writeFileSync(file, pdf);
    const text = normal(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
    for (const name of [ORGANISATION, ...SIGNERS]) expect(text, name).toContain(name);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    expect(fonts.length).toBeGreaterThanOrEqual(3); // Noto Sans (regular, bold), Arabic, SC
    for (const f of fonts) expect(f).toMatch(/CID TrueType\s+Identity-H\s+yes yes yes/);
  });
});
