/**
 * The certificate of completion (pdf-lib, no external assets): reference, document hash, signers and
 * their verification, times, the transaction's event log (supplied by the caller), the log evidence
 * (leaf index, checkpoint, seal) and a QR code to the public verify page. Text in any script, shaped
 * by ./text; the same input gives the same bytes (dates from the certificate, no random names).
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { certificateAssurance, signerAssurance, signerAssuranceMeaning, type Certificate } from '../domain/certificate.js';
import { PdfText, paragraphOf, type Paragraph, type TextStyle } from './text/index.js';

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

const A4: [number, number] = [595.28, 841.89];
/** A first-strong isolate: a name in any direction keeps its place among the text around it. */
const isolate = (value: string) => `\u2068${value}\u2069`;

class Writer {
  y: number;
  page: PDFPage;
  constructor(
    private doc: PDFDocument,
    readonly fonts: PdfText,
  ) {
    this.page = doc.addPage(A4);
    this.y = 800;
  }
  ensure(space: number) {
    if (this.y - space < 50) {
      this.page = this.doc.addPage(A4);
      this.y = 800;
    }
  }
  private draw(value: string, x: number, style: TextStyle, paragraph: Paragraph = paragraphOf(value)) {
    this.fonts.draw(this.page, value, x, this.y, style, paragraph);
  }
  heading(text: string, size = 13) {
    this.ensure(size + 12);
    this.y -= 8;
    this.draw(text, 50, { size, bold: true, color: rgb(0.1, 0.1, 0.3) });
    this.y -= size + 6;
  }
  /** A label and a value wrapped to the page width (between words; long hashes and seals break anywhere). */
  field(label: string, value: string, size = 9.5) {
    const x = 190;
    const lines = this.fonts.wrap(value, A4[0] - x - 50, { size });
    const paragraph = paragraphOf(value);
    this.ensure(lines.length * (size + 3) + 2);
    this.draw(label, 50, { size, bold: true });
    for (const l of lines) {
      this.draw(l, x, { size }, paragraph);
      this.y -= size + 3;
    }
    this.y -= 2;
  }
  /** A link on its own full-width line, never cut or wrapped (smaller type when long), so it can be copied whole. */
  url(value: string) {
    const width = A4[0] - 100;
    let size = 8.5;
    while (size > 5 && this.fonts.width(value, { size }) > width) size -= 0.5;
    this.ensure(size + 4);
    this.draw(value, 50, { size }, { dir: 'ltr', japanese: false });
    this.y -= size + 4;
  }
  /** A paragraph over the page width, wrapped between words. */
  text(value: string, size = 9) {
    const paragraph = paragraphOf(value);
    for (const l of this.fonts.wrap(value, A4[0] - 100, { size })) {
      this.ensure(size + 4);
      this.draw(l, 50, { size }, paragraph);
      this.y -= size + 4;
    }
  }
}

export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const c = input.certificate;
  // Every date from the certificate and no pdf-lib defaults (its ModDate is now): two renders are identical.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`${input.test ? 'TEST ' : ''}Certificate of completion ${c.reference}`);
  doc.setSubject(`Signet certificate ${c.reference}`);
  doc.setProducer('Signet ledger');
  doc.setCreator('Signet ledger');
  doc.setCreationDate(new Date(c.verified_at));
  doc.setModificationDate(new Date(c.verified_at));
  const w = new Writer(doc, new PdfText(doc));

  if (input.test) w.heading('TEST - test mode: no real signing took place; sealed in the test log', 12);
  w.heading(`${input.test ? 'TEST ' : ''}Certificate of completion`, 20);
  w.field('Reference', c.reference);
  w.field('Issuer', c.issuer_name);
  w.field('Attestation', c.attestation_type);
  w.field('Verified at (UTC)', c.verified_at);
  w.field('Document SHA-256', c.document_sha256);

  w.heading('Signers');
  c.signers.forEach((s, i) => {
    w.field(`Signer ${i + 1}`, `${isolate(s.name)} (${s.email_masked})`);
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
    for (const e of input.events)
      w.text(`${e.at}  ${e.type}  ${isolate(e.actor)}${e.detail ? ` - ${isolate(e.detail)}` : ''}`, 8.5);
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
  w.ensure(side);
  w.page.drawImage(img, { x: 50, y: w.y - side, width: side, height: side });
  w.fonts.finish();
  return doc.save({ useObjectStreams: false });
}
