/**
 * The audit-trail pages appended to the signed document (pdf-lib + fontkit): the document, the
 * sender, every signer and the certificate's place in the log, in Noto Sans embedded as a subset so
 * names outside WinAnsi ("Jan Łukasiewicz") print as written.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import subsetFont from 'subset-font';
import { signerAssurance, signerAssuranceMeaning, type Certificate } from '../domain/certificate.js';
import { wrapLines } from './wrap.js';

/** What one signer's ceremony recorded (times RFC 3339 UTC; empty: not recorded). */
export type SignerTrail = {
  link_sent_at: string;
  opened_at: string;
  consented_at: string;
  consent_text_version: string;
  consent_ip: string;
  consent_user_agent: string;
  captured_at: string;
  capture_ip: string;
  capture_user_agent: string;
  attempt: number;
};

export type AuditTrailInput = {
  documentName: string;
  pageCount: number;
  certificate: Certificate;
  /** The signers' full e-mail addresses, in the certificate's order (the certificate masks them). */
  signerEmails: string[];
  /** What each signer's ceremony recorded, in the certificate's order (absent on older records). */
  trails?: SignerTrail[];
  leafIndex: number;
  treeSize: number;
  origin: string;
  verifyUrl: string;
};

const A4: [number, number] = [595.28, 841.89];
const require = createRequire(import.meta.url);
type FontFile = { bytes: Uint8Array; covers: (cp: number) => boolean };
let fonts: Record<'regular' | 'bold' | 'cjk' | 'arabic', FontFile> | undefined;

/**
 * The font files ship in npm packages (OFL), read once: Noto Sans (Latin, Greek, Cyrillic), and for
 * what it lacks Noto Sans SC (CJK) and Noto Sans Arabic, embedded only when a text needs them.
 */
function fontFiles() {
  const load = (path: string): FontFile => {
    const bytes = readFileSync(require.resolve(path));
    const font = fontkit.create(bytes) as { hasGlyphForCodePoint(cp: number): boolean };
    return { bytes, covers: (cp) => font.hasGlyphForCodePoint(cp) };
  };
  fonts ??= {
    regular: load('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    bold: load('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
    cjk: load('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
    arabic: load('@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'),
  };
  return fonts;
}

type Fallbacks = { cjk?: PDFFont; arabic?: PDFFont };

/** Runs of text each in the first font that has its glyphs (the given one, else a fallback). */
function runs(text: string, font: PDFFont, primary: FontFile, fallbacks: Fallbacks): { text: string; font: PDFFont }[] {
  const f = fontFiles();
  const out: { text: string; font: PDFFont }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const pick =
      primary.covers(cp) || /\s/.test(ch)
        ? font
        : fallbacks.cjk && f.cjk.covers(cp)
          ? fallbacks.cjk
          : fallbacks.arabic && f.arabic.covers(cp)
            ? fallbacks.arabic
            : font;
    const last = out.at(-1);
    if (last && last.font === pick) last.text += ch;
    else out.push({ text: ch, font: pick });
  }
  return out;
}

class Writer {
  y = 0;
  page!: PDFPage;
  constructor(
    private doc: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont,
    private fallbacks: Fallbacks,
  ) {
    this.newPage();
  }
  private width(text: string, font: PDFFont, size: number) {
    const primary = font === this.bold ? fontFiles().bold : fontFiles().regular;
    return runs(text, font, primary, this.fallbacks).reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
  }
  private draw(text: string, x: number, size: number, font: PDFFont, color = rgb(0, 0, 0)) {
    const primary = font === this.bold ? fontFiles().bold : fontFiles().regular;
    for (const r of runs(text, font, primary, this.fallbacks)) {
      this.page.drawText(r.text, { x, y: this.y, size, font: r.font, color });
      x += r.font.widthOfTextAtSize(r.text, size);
    }
  }
  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = 800;
  }
  ensure(space: number) {
    if (this.y - space < 50) this.newPage();
  }
  heading(text: string, size = 13) {
    this.ensure(size + 12);
    this.y -= 8;
    this.draw(text, 50, size, this.bold, rgb(0.1, 0.1, 0.3));
    this.y -= size + 6;
  }
  /** A label and a value wrapped to the page width (between words; long hashes break anywhere). */
  field(label: string, value: string, size = 9.5) {
    const x = 190;
    const width = A4[0] - x - 50;
    const lines = wrapLines(value, (l) => this.width(l, this.font, size) <= width);
    this.ensure(lines.length * (size + 4) + 2);
    this.draw(label, 50, size, this.bold);
    for (const l of lines) {
      this.draw(l, x, size, this.font);
      this.y -= size + 4;
    }
    this.y -= 2;
  }
  text(value: string, size = 9) {
    this.ensure(size + 5);
    this.draw(value, 50, size, this.font);
    this.y -= size + 5;
  }
}

/** Appends the audit trail to `doc` (after the document's own pages). */
export async function appendAuditTrail(doc: PDFDocument, input: AuditTrailInput): Promise<void> {
  doc.registerFontkit(fontkit);
  const f = fontFiles();
  const c = input.certificate;
  // Every character the pages can show: the fixed text is ASCII, the rest comes from the input.
  const texts = [
    input.documentName,
    c.issuer_name,
    input.verifyUrl,
    ...c.signers.map((s) => s.name),
    ...c.signers.map((s) => signerAssuranceMeaning(s)),
    ...input.signerEmails,
    ...(input.trails ?? []).flatMap((t) => Object.values(t).map(String)),
  ].join('');
  const chars = String.fromCharCode(...Array.from({ length: 95 }, (_, i) => 0x20 + i)) + texts;
  // Subset by HarfBuzz, embedded whole: pdf-lib's own subsetting (fontkit) drops glyphs of these
  // fonts (pdftotext still reads the text, but the pages show gaps). No ligatures: their glyphs are
  // placed with gaps from a subset. Arabic is embedded whole (~300 kB): fontkit shapes a HarfBuzz
  // subset of it into isolated letters.
  const embed = async (file: FontFile, subset = true) =>
    doc.embedFont(subset ? await subsetFont(Buffer.from(file.bytes), chars, { targetFormat: 'sfnt' }) : file.bytes, {
      subset: false,
      features: { liga: false },
    });
  const font = await embed(f.regular);
  const bold = await embed(f.bold);
  // Fallback fonts only when a text has what Noto Sans lacks.
  const missing = [...texts].map((ch) => ch.codePointAt(0)!).filter((cp) => !f.regular.covers(cp));
  const fallbacks: Fallbacks = {
    cjk: missing.some((cp) => f.cjk.covers(cp)) ? await embed(f.cjk) : undefined,
    arabic: missing.some((cp) => f.arabic.covers(cp)) ? await embed(f.arabic, false) : undefined,
  };
  const w = new Writer(doc, font, bold, fallbacks);

  w.heading('Audit trail', 20);
  w.text(`This page and those after it were appended by Signet when the certificate was issued.`);
  w.heading('Document');
  w.field('Name', input.documentName || '(unnamed)');
  w.field('SHA-256', c.document_sha256);
  w.field('Pages', String(input.pageCount));
  w.field('Sender organisation', c.issuer_name);
  w.field('Attestation', c.attestation_type);

  w.heading('Signers');
  c.signers.forEach((s, i) => {
    const t = input.trails?.[i];
    const at = (v: string | undefined) => v || 'not recorded';
    w.field(`Signer ${i + 1}`, s.name);
    w.field('  E-mail', input.signerEmails[i] || s.email_masked);
    w.field('  Verification mode', s.verification_mode);
    w.field('  Assurance', `${signerAssurance(s)} - ${signerAssuranceMeaning(s)}`);
    const attempt = t?.attempt ? ` (attempt ${t.attempt})` : '';
    // The checks the certificate names (issue 18); older certificates: every check of the mode.
    w.field(
      '  Checks passed',
      s.checks?.length ? `${s.checks.join(', ')}${attempt}` : `every check of ${s.verification_mode} verification${attempt}`,
    );
    w.field('  Link sent (UTC)', at(t?.link_sent_at));
    w.field('  Link opened (UTC)', at(t?.opened_at));
    w.field('  Consented (UTC)', at(t?.consented_at));
    w.field('  Consent text version', at(t?.consent_text_version));
    w.field('  Capture submitted (UTC)', at(t?.captured_at));
    w.field('  Verified (UTC)', s.verified_at);
    w.field('  IP at consent', at(t?.consent_ip));
    w.field('  Browser at consent', at(t?.consent_user_agent), 8);
    w.field('  IP at capture', at(t?.capture_ip));
    w.field('  Browser at capture', at(t?.capture_user_agent), 8);
  });

  w.heading('Certificate');
  w.field('Reference', c.reference);
  w.field('Verified at (UTC)', c.verified_at);
  w.field('Log', input.origin);
  w.field('Log index', String(input.leafIndex));
  w.field('Tree size', String(input.treeSize));
  w.field('Verify online', input.verifyUrl, 8.5);
  w.text('The evidence bundle cert.json (certificate, inclusion proof, signed checkpoint) is attached to the signed PDF;');
  w.text('check it offline against the original document: signet-verify cert.json <document> --key <log public key>.');
  // A QR code of the verify URL (qrcode: the same input gives the same PNG, so the pages are stable).
  const png = await QRCode.toBuffer(input.verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 220 });
  const img = await doc.embedPng(png);
  const side = 110;
  w.ensure(side + 10);
  w.page.drawImage(img, { x: 50, y: w.y - side - 6, width: side, height: side });
  w.y -= side + 10;
}

/**
 * The audit trail on its own (the pages the signed PDF appends), stored once next to the signed PDF:
 * its metadata dates are the seal's, so nothing in it depends on when it is downloaded.
 */
export async function renderAuditTrailPdf(input: AuditTrailInput & { sealedAt: Date }): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Audit trail ${input.certificate.reference}`);
  doc.setSubject(`Signet certificate ${input.certificate.reference}`);
  doc.setProducer('Signet ledger');
  doc.setCreator('Signet ledger');
  doc.setCreationDate(input.sealedAt);
  doc.setModificationDate(input.sealedAt);
  await appendAuditTrail(doc, input);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
