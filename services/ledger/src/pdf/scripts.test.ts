/**
 * Text in any script in every PDF the ledger makes (issue 32 item 3): names in Latin with
 * diacritics, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Chinese, Japanese and "→" are read back
 * by poppler (pdftotext), every font is embedded with a Unicode map (pdffonts), each word of each
 * name is inked where poppler finds it on the page rendered by pdftoppm, and two renders are
 * byte-identical. The old pages failed this: "?" for every non-Latin character in certificate.pdf,
 * Arabic split into unjoined letters in the audit trail.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Certificate, CertificateSigner } from '../domain/certificate.js';
import { renderAuditTrailPdf } from './audit-trail.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import { PdfText, observeMissingGlyphs } from './text/index.js';
import { shapeLine } from './text/shape.js';
import { expectNamesRendered, normal } from '../../test/fixtures/glyph-checks.js';

const NAMES = {
  latin: 'Zoë Šťastná-Łukasiewicz',
  greek: 'Αλέξανδρος Παπαδόπουλος',
  cyrillic: 'Пётр Чайковский',
  arabic: 'محمد عبد الله',
  hebrew: 'דוד בן גוריון',
  devanagari: 'श्रीमती प्रिया शर्मा',
  chinese: '王小明',
  japanese: '山田 たろう',
};
const ORGANISATION = 'شركة النور → 北京公司';

const signer = (name: string, i: number): CertificateSigner => ({
  name,
  email_masked: `s${i}***@example.com`,
  verification_mode: 'biometric',
  assurance: 'live',
  verified_at: '2026-11-28T10:00:00.000Z',
});
const cert: Certificate = {
  version: 2,
  reference: 'ACM-TX-00000033',
  document_sha256: 'e'.repeat(64),
  issuer_name: ORGANISATION,
  attestation_type: 'signature',
  signers: Object.values(NAMES).map(signer),
  verified_at: '2026-11-28T10:00:00.000Z',
};

const certificatePdf = () =>
  renderCertificatePdf({
    certificate: cert,
    ledgerSeal: 'seal',
    leafIndex: 3,
    treeSize: 4,
    checkpointRoot: 'root',
    origin: 'signet.example/log',
    verifyUrl: 'https://signet.example/verify?ref=ACM-TX-00000033&hash=eeeeeeeeeeeeeeee',
    events: [
      {
        type: 'transaction.created',
        at: '2026-11-28T09:00:00Z',
        actor: NAMES.arabic,
        detail: `sent to ${NAMES.devanagari} → ${NAMES.chinese}`,
      },
    ],
  });
const auditTrailPdf = () =>
  renderAuditTrailPdf({
    documentName: `${NAMES.hebrew} عقد.pdf`,
    pageCount: 1,
    certificate: cert,
    signerEmails: Object.keys(NAMES).map((k) => `${k}@example.com`),
    leafIndex: 3,
    treeSize: 4,
    origin: 'signet.example/log',
    verifyUrl: 'https://signet.example/verify?ref=ACM-TX-00000033&hash=eeeeeeeeeeeeeeee',
    sealedAt: new Date('2026-11-28T10:00:05.000Z'),
  });

const dir = mkdtempSync(join(tmpdir(), 'signet-scripts-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function save(pdf: Uint8Array, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, pdf);
  return path;
}

/** The organisation mixes directions: poppler orders its two runs its own way, so each run is checked. */
function expectEveryName(path: string) {
  expectNamesRendered(path, [...Object.values(NAMES), ...ORGANISATION.split(' → ')], dir);
  expect(normal(execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }))).toContain('→');
}

describe('every script in every PDF (issue 32 item 3)', { timeout: 60_000 }, () => {
  it('HarfBuzz finds a glyph for every character of every name (no .notdef)', () => {
    for (const name of [...Object.values(NAMES), ORGANISATION]) {
      const line = shapeLine(name, 'regular', 'ltr');
      expect(
        line.clusters.flatMap((c) => c.glyphs.map((g) => g.gid)),
        name,
      ).not.toContain(0);
    }
  });

  it('certificate.pdf: every name read back and inked, fonts embedded, the same bytes twice', async () => {
    const counted: number[] = [];
    observeMissingGlyphs((n) => counted.push(n));
    const pdf = await certificatePdf();
    observeMissingGlyphs(undefined);
    expect(counted, 'no character without a glyph').toEqual([]);
    expectEveryName(save(pdf, 'certificate.pdf'));
    expect(Buffer.from(await certificatePdf()).equals(Buffer.from(pdf))).toBe(true);
  });

  it('the audit trail (the signed PDF’s appended pages): every name read back and inked, the same bytes twice', async () => {
    const pdf = await auditTrailPdf();
    expectEveryName(save(pdf, 'audit-trail.pdf'));
    expect((await auditTrailPdf()).equals(pdf)).toBe(true);
  });

  it('Arabic is joined: one glyph per letter in its contextual form, not the isolated forms', () => {
    const isolated = shapeLine('م', 'regular', 'rtl').clusters[0]!.glyphs[0]!.gid;
    const joined = shapeLine('محمد', 'regular', 'rtl').clusters.flatMap((c) => c.glyphs.map((g) => g.gid));
    expect(joined).not.toContain(isolated);
  });

  it('a character no font has (an emoji) is drawn as the missing-glyph box and still reads back as itself', async () => {
    expect(shapeLine('😀', 'regular', 'ltr').clusters[0]!.glyphs[0]!.gid).toBe(0);
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([300, 100]);
    const text = new PdfText(doc);
    const counted: number[] = [];
    observeMissingGlyphs((n) => counted.push(n));
    text.draw(page, 'Ana 😀 Ωmega', 20, 50, { size: 12 });
    text.finish();
    observeMissingGlyphs(undefined);
    expect(counted, 'signet_ledger_pdf_missing_glyphs_total counts it').toEqual([1]);
    const path = save(await doc.save(), 'emoji.pdf');
    expect(normal(execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }))).toBe('Ana 😀 Ωmega');
  });
});
