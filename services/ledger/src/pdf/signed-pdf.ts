/**
 * The signed PDF before its signature: the original document's pages unchanged, the audit trail
 * appended, cert.json attached as an embedded file, and a PAdES signature placeholder
 * (ETSI.CAdES.detached) covering the whole file; `sealPdf` then fills it (@signpdf/signpdf).
 */
import { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED, type Signer } from '@signpdf/utils';
import { SignPdf } from '@signpdf/signpdf';
import { appendAuditTrail, type AuditTrailInput } from './audit-trail.js';

export type SignedPdfInput = Omit<AuditTrailInput, 'pageCount'> & {
  /** The original document. */
  document: Uint8Array;
  /** The proof bundle as served at /api/ledger/proof (cert.json). */
  bundleJson: string;
  /** The seal's time (the signature dictionary's /M; the trusted time is the timestamp's). */
  sealedAt: Date;
  /** The seal's holder (the certificate subject), shown by readers as the signer. */
  sealName: string;
};

/** Room for the CMS: certificates, signature and timestamp token (with the TSA's certificate). */
const SIGNATURE_LENGTH = 16_384;

export async function preparePdf(input: SignedPdfInput): Promise<Buffer> {
  const doc = await PDFDocument.load(input.document, { updateMetadata: false });
  const pageCount = doc.getPageCount();
  await appendAuditTrail(doc, { ...input, pageCount });
  await doc.attach(Buffer.from(input.bundleJson, 'utf8'), 'cert.json', {
    mimeType: 'application/json',
    description: `Signet evidence bundle of ${input.certificate.reference}`,
    creationDate: input.sealedAt,
    modificationDate: input.sealedAt,
  });
  doc.setModificationDate(input.sealedAt);
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: `Signet certificate ${input.certificate.reference}`,
    contactInfo: '',
    name: input.sealName,
    location: '',
    signingTime: input.sealedAt,
    signatureLength: SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Signet ledger',
  });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Fills the placeholder with the signer's CMS (over every byte but the signature's own). */
export async function sealPdf(prepared: Buffer, signer: Signer, sealedAt: Date): Promise<Buffer> {
  return new SignPdf().sign(prepared, signer, sealedAt);
}
