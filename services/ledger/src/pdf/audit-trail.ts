/**
 * The audit-trail pages appended to the signed document: the document, the sender, every signer and
 * the certificate's place in the log. Text in any script (names, organisations, browsers) is shaped
 * and drawn by ./text (HarfBuzz, bidi, Noto fonts subset to what the pages use).
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { signerAssurance, signerAssuranceMeaning, type Certificate } from '../domain/certificate.js';
import { PdfText, paragraphOf, type Paragraph, type TextStyle } from './text/index.js';
import { drawTestBanner } from './test-stamp.js';

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
  /** Per signer, the values they filled in the document's fields (issue 33; pdf/field-values.ts); '' or absent: none. */
  fieldValues?: string[];
  leafIndex: number;
  treeSize: number;
  origin: string;
  verifyUrl: string;
  /** Test mode: every page carries the TEST banner (pdf/test-stamp.ts). */
  test?: boolean;
};

const A4: [number, number] = [595.28, 841.89];

class Writer {
  y = 0;
  page!: PDFPage;
  constructor(
    private doc: PDFDocument,
    readonly fonts: PdfText,
    private readonly test = false,
  ) {
    this.newPage();
  }
  private newPage() {
    this.page = this.doc.addPage(A4);
    if (this.test) drawTestBanner(this.fonts, this.page);
    this.y = 800;
  }
  ensure(space: number) {
    if (this.y - space < 50) this.newPage();
  }
  private draw(value: string, x: number, style: TextStyle, paragraph: Paragraph = paragraphOf(value)) {
    this.fonts.draw(this.page, value, x, this.y, style, paragraph);
  }
  heading(value: string, size = 13) {
    this.ensure(size + 12);
    this.y -= 8;
    this.draw(value, 50, { size, bold: true, color: rgb(0.1, 0.1, 0.3) });
    this.y -= size + 6;
  }
  /** A label and a value wrapped to the page width (between words; long hashes break anywhere). */
  field(label: string, value: string, size = 9.5) {
    const x = 190;
    const lines = this.fonts.wrap(value, A4[0] - x - 50, { size });
    const paragraph = paragraphOf(value);
    this.ensure(lines.length * (size + 4) + 2);
    this.draw(label, 50, { size, bold: true });
    for (const l of lines) {
      this.draw(l, x, { size }, paragraph);
      this.y -= size + 4;
    }
    this.y -= 2;
  }
  text(value: string, size = 9) {
    const paragraph = paragraphOf(value);
    for (const l of this.fonts.wrap(value, A4[0] - 100, { size })) {
      this.ensure(size + 5);
      this.draw(l, 50, { size }, paragraph);
      this.y -= size + 5;
    }
  }
}

/** Appends the audit trail to `doc` (after the document's own pages). */
export async function appendAuditTrail(doc: PDFDocument, input: AuditTrailInput): Promise<void> {
  const c = input.certificate;
  const w = new Writer(doc, new PdfText(doc), input.test);

  w.heading('Audit trail', 20);
  w.text(`This page and those after it were appended by Signet when the certificate was issued.`);
  w.heading('Document');
  w.field('Name', input.documentName || '(unnamed)');
  w.field('SHA-256', c.document_sha256);
  // Issue 33: the document as filled (revision 1 and the fields' update), which the certificate binds too.
  if (c.filled_document_sha256) w.field('Filled SHA-256', c.filled_document_sha256);
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
    if (input.fieldValues?.[i]) w.field('  Fields filled', input.fieldValues[i], 8);
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
  w.fonts.finish();
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
