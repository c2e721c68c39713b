/**
 * PAdES B-LTA (issue 32 item 7): a document timestamp — an RFC 3161 token over every byte before it,
 * in a signature dictionary of /Type /DocTimeStamp and /SubFilter /ETSI.RFC3161 — written as the
 * last incremental update, after the DSS. It proves the seal, its validation data and everything
 * else in the file existed at the token's time, so the seal can still be validated after the seal's
 * and the first TSA's certificates expire, as long as the newest document timestamp's TSA
 * certificate is valid: the re-timestamping job (usecases/retimestamp-signed-pdfs.ts) adds the newest
 * timestamp's validation data (a new DSS) and a new document timestamp before that certificate expires.
 *
 * The field is invisible (a widget with an empty /Rect on the first page, as pyHanko's own
 * timestamper writes it). The byte range and /Contents are filled by @signpdf's SignPdf, whose
 * "signer" here asks the TSA for a token over the bytes of the range.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, Signer } from '@signpdf/utils';
import type { Timestamper } from './cades-signer.js';
import { appendUpdate, crlsFor, type FetchBytes } from './dss.js';

/** Room for the token (TSTInfo, the TSA's signature and certificates). */
const TOKEN_LENGTH = 16_384;
const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

class TimestampSigner extends Signer {
  constructor(private timestamp: Timestamper) {
    super();
  }
  override async sign(bytes: Buffer): Promise<Buffer> {
    return Buffer.from(await this.timestamp(bytes));
  }
}

const lookup = (doc: PDFDocument, o: PDFObject | undefined) => (o instanceof PDFRef ? doc.context.lookup(o) : o);

/** A copy of an array (direct, or behind a reference) with one more element. */
function withElement(doc: PDFDocument, arr: PDFObject | undefined, el: PDFObject): PDFArray {
  const out = PDFArray.withContext(doc.context);
  const before = lookup(doc, arr);
  if (before instanceof PDFArray) for (const e of before.asArray()) out.push(e);
  out.push(el);
  return out;
}

/** A shallow copy of a dictionary, to be written again under its own reference. */
function copyOf(doc: PDFDocument, dict: PDFDict): PDFDict {
  const out = doc.context.obj({});
  for (const [k, v] of dict.entries()) out.set(k, v);
  return out;
}

/**
 * Loads the PDF to append to. New objects are numbered above every number the file declares: pdf-lib
 * does not keep cross-reference and object streams as objects, but their numbers are taken.
 */
async function openForAppend(pdf: Buffer): Promise<PDFDocument> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  let size = 0;
  for (const m of pdf.toString('latin1').matchAll(/\/Size\s+(\d+)/g)) size = Math.max(size, Number(m[1]));
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, size - 1);
  return doc;
}

/** The number of document timestamps and signatures the PDF carries (its field names must differ). */
const signatureCount = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[/g)].length;

/** Appends a document timestamp over the whole PDF as an incremental update. */
export async function addDocumentTimestamp(pdf: Buffer, timestamp: Timestamper): Promise<Buffer> {
  const doc = await openForAppend(pdf);
  const ctx = doc.context;
  const objects: [PDFRef, PDFObject][] = [];
  const add = (obj: PDFObject) => {
    const ref = PDFRef.of(ctx.largestObjectNumber + objects.length + 1);
    objects.push([ref, obj]);
    return ref;
  };
  const placeholder = PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER);
  const byteRange = PDFArray.withContext(ctx);
  for (const v of [PDFNumber.of(0), placeholder, placeholder, placeholder]) byteRange.push(v);
  const sig = ctx.obj({ Type: 'DocTimeStamp', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.RFC3161' });
  sig.set(PDFName.of('ByteRange'), byteRange); // before /Contents: SignPdf looks for /Contents after it
  sig.set(PDFName.of('Contents'), PDFHexString.of('0'.repeat(TOKEN_LENGTH * 2)));
  const sigRef = add(sig);

  const page = doc.getPage(0);
  const widget = ctx.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', F: 132, Rect: [0, 0, 0, 0] });
  widget.set(PDFName.of('T'), PDFString.of(`Signet document timestamp ${signatureCount(pdf)}`));
  widget.set(PDFName.of('V'), sigRef);
  widget.set(PDFName.of('P'), page.ref);
  const widgetRef = add(widget);

  const pageDict = copyOf(doc, page.node);
  pageDict.set(PDFName.of('Annots'), withElement(doc, page.node.get(PDFName.of('Annots')), widgetRef));
  objects.push([page.ref, pageDict]);

  const formEntry = doc.catalog.get(PDFName.of('AcroForm'));
  const oldForm = lookup(doc, formEntry);
  const form = oldForm instanceof PDFDict ? copyOf(doc, oldForm) : ctx.obj({});
  form.set(PDFName.of('Fields'), withElement(doc, form.get(PDFName.of('Fields')), widgetRef));
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (formEntry instanceof PDFRef) objects.push([formEntry, form]);
  else {
    const catalog = copyOf(doc, doc.catalog);
    catalog.set(PDFName.of('AcroForm'), form);
    objects.push([ctx.trailerInfo.Root as PDFRef, catalog]);
  }
  const prepared = appendUpdate(pdf, doc, objects);
  return new SignPdf().sign(prepared, new TimestampSigner(timestamp));
}

/** A timestamp token's TSA (signer) certificate, from the certificates the token carries. */
function tsaCertificate(token: pkijs.ContentInfo): pkijs.Certificate | undefined {
  const sd = new pkijs.SignedData({ schema: token.content });
  const sid = sd.signerInfos[0]?.sid;
  const certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  if (sid instanceof pkijs.IssuerAndSerialNumber)
    return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  return certs[0];
}

export type PdfTimestamp = {
  /** doc: a document timestamp; signature: the seal's signature timestamp. */
  kind: 'doc' | 'signature';
  /** The time the token states. */
  time: Date;
  /** Its TSA certificate's end of validity (after it, the token needs a newer one to be trusted). */
  tsaNotAfter: Date;
  /** Its TSA certificate (DER), for the validation data. */
  tsaCertificates: pkijs.Certificate[];
};

/** The timestamp a signature's /Contents carries: a document timestamp's token itself, or a CMS signature's signature-timestamp attribute. */
function timestampOf(der: Buffer): PdfTimestamp | null {
  const ci = new pkijs.ContentInfo({ schema: asn1js.fromBER(der).result });
  const sd = new pkijs.SignedData({ schema: ci.content });
  const isDoc = sd.encapContentInfo.eContentType === '1.2.840.113549.1.9.16.1.4'; // id-ct-TSTInfo
  let token = ci;
  if (!isDoc) {
    const attr = sd.signerInfos[0]?.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP);
    if (!attr) return null;
    token = new pkijs.ContentInfo({ schema: attr.values[0] as asn1js.Sequence });
  }
  const tsd = new pkijs.SignedData({ schema: token.content });
  const tst = pkijs.TSTInfo.fromBER(tsd.encapContentInfo.eContent!.getValue());
  const cert = tsaCertificate(token);
  if (!cert) return null;
  const certs = (tsd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  return { kind: isDoc ? 'doc' : 'signature', time: tst.genTime, tsaNotAfter: cert.notAfter.value, tsaCertificates: certs };
}

/**
 * The timestamps of the seal and after it, in file order: the seal's signature timestamp (the last
 * signature that is not a document timestamp) and each document timestamp. Signatures the uploaded
 * document carried come before the seal and are not this service's to maintain; a signature whose
 * CMS cannot be read, or without a timestamp, is skipped.
 */
export function timestampsOf(pdf: Buffer): PdfTimestamp[] {
  const text = pdf.toString('latin1');
  const out: PdfTimestamp[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    let t: PdfTimestamp | null = null;
    try {
      t = timestampOf(Buffer.from(text.slice(Number(m[2]) + 1, Number(m[3]) - 1), 'hex'));
    } catch {
      t = null;
    }
    if (t) out.push(t);
  }
  const seal = out.findLastIndex((t) => t.kind === 'signature');
  return seal < 0 ? out : out.slice(seal);
}

/** The end of validity of the newest timestamp's TSA certificate: the date before which to timestamp again. */
export function timestampExpiry(pdf: Buffer): Date | null {
  return timestampsOf(pdf).at(-1)?.tsaNotAfter ?? null;
}

/** The decoded bytes of each stream an array (direct or referenced) of the DSS lists. */
function dssEntries(doc: PDFDocument, dss: PDFDict | undefined, key: string): { ref: PDFObject; bytes: Buffer }[] {
  const arr = dss ? lookup(doc, dss.get(PDFName.of(key))) : undefined;
  if (!(arr instanceof PDFArray)) return [];
  return arr.asArray().flatMap((ref) => {
    const s = lookup(doc, ref);
    return s instanceof PDFRawStream ? [{ ref, bytes: Buffer.from(decodePDFRawStream(s).decode()) }] : [];
  });
}

/**
 * The validation data of every timestamp the PDF carries (its TSA's certificates and the CRLs their
 * distribution points serve now) merged into the DSS as an incremental update: what a newer document
 * timestamp then covers, so the older timestamps stay verifiable after their TSA certificates expire.
 * Certificates and CRLs already in the DSS are not repeated.
 */
export async function addTimestampValidationData(pdf: Buffer, get: FetchBytes, chain: pkijs.Certificate[] = []): Promise<Buffer> {
  const certs = [...timestampsOf(pdf).flatMap((t) => t.tsaCertificates), ...chain];
  const crls = await crlsFor(certs, get);
  const doc = await openForAppend(pdf);
  const ctx = doc.context;
  const dssEntry = doc.catalog.get(PDFName.of('DSS'));
  const old = lookup(doc, dssEntry);
  const oldDss = old instanceof PDFDict ? old : undefined;
  const objects: [PDFRef, PDFObject][] = [];
  const add = (obj: PDFObject) => {
    const ref = PDFRef.of(ctx.largestObjectNumber + objects.length + 1);
    objects.push([ref, obj]);
    return ref;
  };
  const dss = oldDss ? copyOf(doc, oldDss) : ctx.obj({});
  const merge = (key: string, items: Uint8Array[]) => {
    const have = dssEntries(doc, oldDss, key);
    const arr = PDFArray.withContext(ctx);
    for (const h of have) arr.push(h.ref);
    for (const item of items) {
      if (have.some((h) => h.bytes.equals(Buffer.from(item)))) continue;
      have.push({ ref: PDFNumber.of(0), bytes: Buffer.from(item) });
      arr.push(add(ctx.flateStream(item)));
    }
    if (arr.size()) dss.set(PDFName.of(key), arr);
  };
  merge(
    'Certs',
    certs.map((c) => new Uint8Array(c.toSchema().toBER())),
  );
  merge('CRLs', crls);
  if (!objects.length) return pdf; // everything is there already
  if (dssEntry instanceof PDFRef) objects.push([dssEntry, dss]);
  else {
    const catalog = copyOf(doc, doc.catalog);
    catalog.set(PDFName.of('DSS'), add(dss));
    objects.push([ctx.trailerInfo.Root as PDFRef, catalog]);
  }
  return appendUpdate(pdf, doc, objects);
}

/**
 * The archive timestamp step (B-LTA), at sealing and at each renewal: the validation data of the
 * timestamps the PDF carries and the configured CA certificates into the DSS (an update only when
 * something is missing), then a new document timestamp over all of it.
 */
export async function archiveTimestamp(
  pdf: Buffer,
  deps: { timestamp: Timestamper; get: FetchBytes; caCerts: pkijs.Certificate[] },
): Promise<Buffer> {
  return addDocumentTimestamp(await addTimestampValidationData(pdf, deps.get, deps.caCerts), deps.timestamp);
}
