/**
 * The certificate of completion (pdf-lib, standard fonts, no external assets): reference, document
 * hash, signers and their verification, times, the transaction's event log (supplied by the caller),
 * the log evidence (leaf index, checkpoint, seal) and a QR code to the public verify page.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { certificateAssurance, signerAssurance, signerAssuranceMeaning, type Certificate } from '../domain/certificate.js';
import { wrapLines } from './wrap.js';

export type EventLogEntry = { type: string; at: string; actor: string; detail: string };

export type CertificatePdfInput = {
  certificate: Certificate;
  ledgerSeal: string;
  leafIndex: number;
  treeSize: number;
  checkpointRoot: string;
  origin: string;
  verifyUrl: string;
  /** The evidence bundle (cert.json) with the hash prefix its route needs; printed whole on its own line. */
  proofUrl?: string;
  /** The log's and the witnesses' verifier keys (GET /api/ledger/keys). */
  keysUrl?: string;
  events: EventLogEntry[];
  /** Sealed in the test log (test mode): the PDF says TEST on its first line and in its title. */
  test?: boolean;
};

/** The standard fonts encode WinAnsi only: anything else is shown as "?" rather than failing the render. */
function winAnsi(text: string): string {
  return [...text]
    .map((ch) => {
      const c = ch.codePointAt(0)!;
      return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || ch === '\u2014' || ch === '\u2013' ? ch : '?';
    })
    .join('');
}

class Writer {
  y: number;
  page: PDFPage;
  constructor(
    private doc: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont,
  ) {
    this.page = doc.addPage([595.28, 841.89]); // A4
    this.y = 800;
  }
  private ensure(space: number) {
    if (this.y - space < 50) {
      this.page = this.doc.addPage([595.28, 841.89]);
      this.y = 800;
    }
  }
  heading(text: string, size = 13) {
    this.ensure(size + 12);
    this.y -= 8;
    this.page.drawText(winAnsi(text), { x: 50, y: this.y, size, font: this.bold, color: rgb(0.1, 0.1, 0.3) });
    this.y -= size + 6;
  }
  /** A label and a value wrapped to the page width (between words; long hashes and seals break anywhere). */
  field(label: string, value: string, size = 9.5) {
    const x = 190;
    const width = 595.28 - x - 50;
    const lines = wrapLines(winAnsi(value), (l) => this.font.widthOfTextAtSize(l, size) <= width);
    this.ensure(lines.length * (size + 3) + 2);
    this.page.drawText(winAnsi(label), { x: 50, y: this.y, size, font: this.bold });
    for (const l of lines) {
      this.page.drawText(l, { x, y: this.y, size, font: this.font });
      this.y -= size + 3;
    }
    this.y -= 2;
  }
  /** A link on its own full-width line, never cut or wrapped (smaller type when long), so it can be copied whole. */
  url(value: string) {
    const width = 595.28 - 100;
    let size = 8.5;
    while (size > 5 && this.font.widthOfTextAtSize(winAnsi(value), size) > width) size -= 0.5;
    this.ensure(size + 4);
    this.page.drawText(winAnsi(value), { x: 50, y: this.y, size, font: this.font });
    this.y -= size + 4;
  }
  text(value: string, size = 9) {
    this.ensure(size + 4);
    this.page.drawText(winAnsi(value).slice(0, 110), { x: 50, y: this.y, size, font: this.font });
    this.y -= size + 4;
  }
}

export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const c = input.certificate;
  const doc = await PDFDocument.create();
  doc.setTitle(`${input.test ? 'TEST ' : ''}Certificate of completion ${c.reference}`);
  doc.setSubject(`Signet certificate ${c.reference}`);
  doc.setProducer('Signet ledger');
  doc.setCreationDate(new Date(c.verified_at));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc, font, bold);

  if (input.test) w.heading('TEST - test mode: no real signing took place; sealed in the test log', 12);
  w.heading(`${input.test ? 'TEST ' : ''}Certificate of completion`, 20);
  w.field('Reference', c.reference);
  w.field('Issuer', c.issuer_name);
  w.field('Attestation', c.attestation_type);
  w.field('Verified at (UTC)', c.verified_at);
  w.field('Document SHA-256', c.document_sha256);

  w.heading('Signers');
  c.signers.forEach((s, i) => {
    w.field(`Signer ${i + 1}`, `${s.name} (${s.email_masked})`);
    w.field(
      '  Verification',
      input.test
        ? `none: test mode, completed without a ceremony at ${s.verified_at}`
        : `${s.verification_mode}, passed at ${s.verified_at}`,
    );
    w.field('  Assurance', `${signerAssurance(s)} - ${signerAssuranceMeaning(s)}`);
    if (s.video_commitment) w.field('  Video commitment', s.video_commitment);
    if (s.frame_commitment) w.field('  Frame commitment', s.frame_commitment);
    if (s.reference_commitment) w.field('  Photo commitment', s.reference_commitment);
  });

  w.heading('Verification summary');
  w.text(
    input.test
      ? 'Test mode: no ceremony ran and no signer was verified; the levels below are what a live ceremony would record.'
      : `Every signer passed ${c.signers.map((s) => s.verification_mode).join(', ')} verification.`,
  );
  w.field('Assurance (weakest signer)', certificateAssurance(c));
  w.text('Commitments are salted SHA-256 hashes; no face image or descriptor is part of this certificate.');
  w.text(`The certificate is leaf ${input.leafIndex} of the append-only Merkle log ${input.origin} (RFC 9162),`);
  w.text(`whose signed checkpoint at size ${input.treeSize} has root ${input.checkpointRoot}.`);
  w.field('Ledger seal', input.ledgerSeal, 8.5);

  if (input.events.length > 0) {
    w.heading('Event log');
    for (const e of input.events) w.text(`${e.at}  ${e.type}  ${e.actor}${e.detail ? ` - ${e.detail}` : ''}`, 8.5);
  }

  w.heading('Verify');
  w.text('Anyone can check this certificate with its reference and the first 16 characters of the document hash:');
  w.field('Online', input.verifyUrl, 8.5);
  if (input.proofUrl) {
    w.text('Evidence bundle (cert.json) and the log and witness keys, for offline checks:');
    w.url(input.proofUrl);
    if (input.keysUrl) w.url(input.keysUrl);
    w.text('Offline: signet-verify cert.json document.pdf --key <log verifier key>');
  } else w.text('Offline: signet-verify cert.json document.pdf --key <log verifier key> (cert.json from /api/ledger/proof).');
  const png = await QRCode.toBuffer(input.verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 220 });
  const img = await doc.embedPng(png);
  const side = 110;
  if (w.y - side < 50) {
    w.page = doc.addPage([595.28, 841.89]);
    w.y = 800;
  }
  w.page.drawImage(img, { x: 50, y: w.y - side, width: side, height: side });
  return doc.save();
}
