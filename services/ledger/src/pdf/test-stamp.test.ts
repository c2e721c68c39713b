/**
 * Test mode's marks (issue 32 item 6): the TEST banner on every page — the document's own pages in
 * an update after revision 1, the audit-trail pages as drawn — read back by poppler, and the
 * generated TEST seal: self-signed, saying what it is, for signatures only, never a CA.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Certificate } from '../domain/certificate.js';
import { renderAuditTrailPdf } from './audit-trail.js';
import { TEST_BANNER, TEST_SEAL_NAME, generateTestSeal } from './test-seal.js';
import { testStamp } from './test-stamp.js';

const dir = mkdtempSync(join(tmpdir(), 'ledger-test-stamp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdftotext of each page of `pdf`. */
function pages(pdf: Buffer, count: number): string[] {
  const file = join(dir, `${createHash('sha256').update(pdf).digest('hex').slice(0, 12)}.pdf`);
  writeFileSync(file, pdf);
  return Array.from({ length: count }, (_, i) =>
    execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), file, '-'], { encoding: 'utf8' }),
  );
}

const cert: Certificate = {
  reference: 'TMODE-000001',
  document_sha256: 'a'.repeat(64),
  issuer_name: 'Sandbox Ltd',
  attestation_type: 'signature',
  signers: [
    {
      name: 'Test Signer',
      email_masked: 't***@example.com',
      verification_mode: 'biometric',
      assurance: 'test',
      verified_at: '2026-11-28T10:00:00.000Z',
    },
  ],
  verified_at: '2026-11-28T10:00:00.000Z',
};

describe('the TEST banner', { timeout: 60_000 }, () => {
  it('stamps every page of the document in an update after revision 1, which stays byte for byte', async () => {
    const doc = await PDFDocument.create();
    for (const size of [
      [595, 842],
      [200, 120],
      [842, 595],
    ] as [number, number][])
      doc.addPage(size).drawText('Agreement', { x: 20, y: 40, size: 10 });
    const original = Buffer.from(await doc.save());
    const stamped = await testStamp()(original);
    expect(stamped.subarray(0, original.length).equals(original)).toBe(true);
    expect(stamped.length).toBeGreaterThan(original.length);
    const text = pages(stamped, 3);
    for (const page of text) expect(page.replace(/\s+/g, ' ')).toContain(TEST_BANNER);
    expect(pages(original, 1)[0]).not.toContain('TEST');
  });

  it('leaves a document without pages as it is (nothing to stamp, no empty update)', async () => {
    const empty = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    expect(await testStamp()(empty)).toBe(empty);
  });

  it('heads every audit-trail page of a test transaction, and none of a live one', async () => {
    const input = {
      documentName: 'Sandbox.pdf',
      pageCount: 1,
      certificate: { ...cert, signers: Array.from({ length: 4 }, () => cert.signers[0]!) },
      signerEmails: [],
      leafIndex: 0,
      treeSize: 1,
      origin: 'signet.local/ledger/test',
      verifyUrl: 'http://localhost/verify?ref=TMODE-000001',
      sealedAt: new Date('2026-11-28T10:00:00Z'),
    };
    const test = await renderAuditTrailPdf({ ...input, test: true });
    const count = (await PDFDocument.load(test)).getPageCount();
    expect(count).toBeGreaterThan(1);
    for (const page of pages(test, count)) expect(page.replace(/\s+/g, ' ')).toContain(TEST_BANNER);
    const live = await renderAuditTrailPdf(input);
    expect(pages(live, 1)[0]).not.toContain('TEST');
  });
});

describe('the generated TEST seal', { timeout: 30_000 }, () => {
  it('is self-signed, names itself TEST, signs documents and is no CA', async () => {
    const { certificates } = await generateTestSeal(new Date('2026-11-28T10:00:00Z'));
    const [c] = certificates;
    const cn = c!.subject.typesAndValues.find((t) => t.type === '2.5.4.3')!.value.valueBlock.value;
    expect(cn).toBe(TEST_SEAL_NAME);
    expect(c!.issuer.isEqual(c!.subject)).toBe(true);
    expect(await c!.verify()).toBe(true);
    const bc = c!.extensions!.find((e) => e.extnID === '2.5.29.19')!.parsedValue as pkijs.BasicConstraints;
    expect(bc.cA).toBe(false);
    expect(c!.notBefore.value.getTime()).toBe(Date.parse('2026-11-27T10:00:00Z'));
  });
});
