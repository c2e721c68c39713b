/**
 * The signed PDF before its signature: the uploaded document's bytes unchanged (revision 1), then
 * incremental updates appended in order — whatever `PdfUpdate`s the caller passes (the signers' field
 * values, issue 33, go there), then the evidence update: the audit-trail pages, cert.json attached as
 * an embedded file and a PAdES signature placeholder (ETSI.CAdES.detached) covering every byte but its
 * own value; `sealPdf` then fills it (@signpdf/signpdf). Validation data (DSS) follows the seal.
 *
 * So the SHA-256 of the signed PDF's first `document.length` bytes is the certificate's
 * `document_sha256`, and a signature the upload already carried still covers what it covered.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, type PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED, type Signer } from '@signpdf/utils';
import { SignPdf } from '@signpdf/signpdf';
import { appendAuditTrail, type AuditTrailInput } from './audit-trail.js';
import { withIncrementalUpdate } from './incremental.js';

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

/** One incremental update: the PDF so far in, the same bytes followed by one more update out. */
export type PdfUpdate = (pdf: Buffer) => Promise<Buffer>;

/** Room for the CMS: certificates, signature and timestamp token (with the TSA's certificate). */
const SIGNATURE_LENGTH = 16_384;

/** The seal's form field name (a signature the upload carries has its own; names must differ). */
export const SEAL_FIELD = 'Signet seal';

/**
 * @signpdf's placeholder appends its widget to the AcroForm's /Fields only when that is a direct
 * array; an upload whose /Fields is an indirect one would lose its own fields (and signatures) from
 * the form. The array is copied into the form first.
 */
function directFields(doc: PDFDocument) {
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = form?.get(PDFName.of('Fields'));
  if (form && fields instanceof PDFRef) {
    const arr = doc.context.lookup(fields);
    const copy = PDFArray.withContext(doc.context);
    if (arr instanceof PDFArray) for (const f of arr.asArray()) copy.push(f);
    form.set(PDFName.of('Fields'), copy);
  }
}

/** The evidence update: the audit trail after the document's pages, cert.json and the seal's placeholder. */
async function addEvidence(doc: PDFDocument, input: SignedPdfInput): Promise<void> {
  const pageCount = doc.getPageCount();
  await appendAuditTrail(doc, { ...input, pageCount });
  await doc.attach(Buffer.from(input.bundleJson, 'utf8'), 'cert.json', {
    mimeType: 'application/json',
    description: `Signet evidence bundle of ${input.certificate.reference}`,
    creationDate: input.sealedAt,
    modificationDate: input.sealedAt,
  });
  doc.setModificationDate(input.sealedAt);
  directFields(doc);
  pdflibAddPlaceholder({
    // The widget sits on the last audit-trail page: no page of the original is changed.
    pdfPage: doc.getPage(doc.getPageCount() - 1),
    reason: `Signet certificate ${input.certificate.reference}`,
    contactInfo: '',
    name: input.sealName,
    location: '',
    signingTime: input.sealedAt,
    signatureLength: SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Signet ledger',
  });
  const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
  doc.context.lookup(fields.get(fields.size() - 1), PDFDict).set(PDFName.of('T'), PDFString.of(SEAL_FIELD));
}

/**
 * The document followed by `updates` (in order) and the evidence update with the placeholder. Each
 * update must keep every byte before it: a step that rewrote the file would fail here, not in a verifier.
 */
export async function preparePdf(input: SignedPdfInput, updates: PdfUpdate[] = []): Promise<Buffer> {
  let pdf: Buffer = Buffer.from(input.document);
  for (const update of [...updates, (bytes: Buffer) => withIncrementalUpdate(bytes, (doc) => addEvidence(doc, input))]) {
    const next = await update(pdf);
    if (next === pdf) continue; // nothing to add (e.g. a TEST stamp on a document without pages)
    if (next.length <= pdf.length || !next.subarray(0, pdf.length).equals(pdf))
      throw new Error('an incremental update changed the bytes before it');
    pdf = next;
  }
  return pdf;
}

/** Fills the placeholder with the signer's CMS (over every byte but the signature's own). */
export async function sealPdf(prepared: Buffer, signer: Signer, sealedAt: Date): Promise<Buffer> {
  return new SignPdf().sign(prepared, signer, sealedAt);
}
