/**
 * The audit-trail pages appended to the signed document (pdf-lib + fontkit): the document, the
 * sender, every signer and the certificate's place in the log, in Noto Sans embedded as a subset so
 * names outside WinAnsi ("Jan Łukasiewicz") print as written.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Certificate } from '../domain/certificate.js';

export type AuditTrailInput = {
  documentName: string;
  pageCount: number;
  certificate: Certificate;
  /** The signers' full e-mail addresses, in the certificate's order (the certificate masks them). */
  signerEmails: string[];
  leafIndex: number;
  treeSize: number;
  origin: string;
  verifyUrl: string;
};

const A4: [number, number] = [595.28, 841.89];
const require = createRequire(import.meta.url);
let fonts: { regular: Uint8Array; bold: Uint8Array } | undefined;

/** The font files ship in an npm package (OFL), read once. */
function fontBytes() {
  fonts ??= {
    regular: readFileSync(require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')),
    bold: readFileSync(require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf')),
  };
  return fonts;
}

class Writer {
  y = 0;
  page!: PDFPage;
  constructor(
    private doc: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont,
  ) {
    this.newPage();
  }
  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = 800;
  }
  private ensure(space: number) {
    if (this.y - space < 50) this.newPage();
  }
  heading(text: string, size = 13) {
    this.ensure(size + 12);
    this.y -= 8;
    this.page.drawText(text, { x: 50, y: this.y, size, font: this.bold, color: rgb(0.1, 0.1, 0.3) });
    this.y -= size + 6;
  }
  /** A label and a value wrapped to the page width (long hashes break anywhere). */
  field(label: string, value: string, size = 9.5) {
    const x = 190;
    const width = A4[0] - x - 50;
    const lines: string[] = [];
    let line = '';
    for (const ch of value) {
      if (line && this.font.widthOfTextAtSize(line + ch, size) > width) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
    lines.push(line);
    this.ensure(lines.length * (size + 4) + 2);
    this.page.drawText(label, { x: 50, y: this.y, size, font: this.bold });
    for (const l of lines) {
      this.page.drawText(l, { x, y: this.y, size, font: this.font });
      this.y -= size + 4;
    }
    this.y -= 2;
  }
  text(value: string, size = 9) {
    this.ensure(size + 5);
    this.page.drawText(value, { x: 50, y: this.y, size, font: this.font });
    this.y -= size + 5;
  }
}

/** Appends the audit trail to `doc` (after the document's own pages). */
export async function appendAuditTrail(doc: PDFDocument, input: AuditTrailInput): Promise<void> {
  doc.registerFontkit(fontkit);
  const f = fontBytes();
  const font = await doc.embedFont(f.regular, { subset: true });
  const bold = await doc.embedFont(f.bold, { subset: true });
  const c = input.certificate;
  const w = new Writer(doc, font, bold);

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
    w.field(`Signer ${i + 1}`, s.name);
    w.field('  E-mail', input.signerEmails[i] || s.email_masked);
    w.field('  Verification mode', `${s.verification_mode} (${s.assurance || 'recorded'})`);
    w.field('  Passed at (UTC)', s.verified_at);
  });

  w.heading('Certificate');
  w.field('Reference', c.reference);
  w.field('Verified at (UTC)', c.verified_at);
  w.field('Log', input.origin);
  w.field('Log index', String(input.leafIndex));
  w.field('Tree size', String(input.treeSize));
  w.field('Verify online', input.verifyUrl, 8.5);
  w.text('The evidence bundle cert.json (certificate, inclusion proof, signed checkpoint) is attached to this PDF;');
  w.text('check it offline against the original document: signet-verify cert.json <document> --key <log public key>.');
}
