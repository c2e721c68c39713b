/**
 * Incremental updates of a PDF (PDF 32000-1 §7.5.6) with pdf-lib: the file is loaded, every object
 * it holds is fingerprinted, the caller changes the document through pdf-lib's API (pages, attachments,
 * a signature placeholder, a /DSS), and only the objects that are new or changed are appended after
 * the file's bytes with their own xref section and a trailer whose /Prev is the file's last startxref.
 * The bytes before are never touched, so an uploaded document stays revision 1 byte for byte and a
 * signature it carries keeps covering what it covered.
 *
 * pdf-lib can read but not write incrementally (it saves a whole new file); pdf-lib's own object
 * serialisation is used, and the only hand-written part is the xref table and trailer syntax.
 */
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';

/** What an object looked like when the file was loaded: the object itself and its serialised form. */
type Fingerprint = { obj: PDFObject; text: string; contents?: Uint8Array };

export type UpdatableDocument = { doc: PDFDocument; bytes: Buffer; before: Map<string, Fingerprint> };

const fingerprint = (obj: PDFObject): Fingerprint =>
  obj instanceof PDFRawStream
    ? { obj, text: obj.dict.toString(), contents: obj.contents }
    : obj instanceof PDFStream
      ? { obj, text: obj.dict.toString() }
      : { obj, text: obj.toString() };

const unchanged = (was: Fingerprint, now: PDFObject) => {
  if (was.obj !== now) return false;
  const f = fingerprint(now);
  return f.text === was.text && f.contents === was.contents && !(now instanceof PDFStream && !(now instanceof PDFRawStream));
};

/** The largest /Size any trailer or cross-reference stream of the file declares (object streams' numbers included). */
function declaredSize(bytes: Buffer): number {
  let size = 0;
  for (const m of bytes.toString('latin1').matchAll(/\/Size\s+(\d+)/g)) size = Math.max(size, Number(m[1]));
  return size;
}

/** The offset the file's last `startxref` names: the /Prev of the next update. */
export function lastStartXref(bytes: Buffer): number {
  const tail = bytes.subarray(Math.max(0, bytes.length - 4096)).toString('latin1');
  const m = [...tail.matchAll(/startxref\s+(\d+)/g)].pop() ?? [...bytes.toString('latin1').matchAll(/startxref\s+(\d+)/g)].pop();
  if (!m) throw new Error('the PDF has no startxref');
  return Number(m[1]);
}

/**
 * Loads a PDF to be extended by an incremental update. New objects are numbered above every number
 * the file declares (pdf-lib does not keep object and xref streams as objects, but their numbers are taken).
 */
export async function openForUpdate(bytes: Buffer): Promise<UpdatableDocument> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, declaredSize(bytes) - 1);
  const before = new Map<string, Fingerprint>();
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) before.set(ref.toString(), fingerprint(obj));
  return { doc, bytes, before };
}

const serialise = (ref: PDFRef, obj: PDFObject) => {
  const body = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(body, 0);
  return Buffer.concat([
    Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`),
    Buffer.from(body),
    Buffer.from('\nendobj\n'),
  ]);
};

/** The xref table of the written objects, one subsection per run of consecutive object numbers. */
function xrefTable(offsets: { ref: PDFRef; at: number }[]): string {
  const sorted = [...offsets].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  const lines = ['xref'];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.ref.objectNumber === sorted[j]!.ref.objectNumber + 1) j++;
    lines.push(`${sorted[i]!.ref.objectNumber} ${j - i + 1}`);
    for (const { ref, at } of sorted.slice(i, j + 1))
      lines.push(`${String(at).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n\r`);
    i = j + 1;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The file's bytes followed by one incremental update holding every object that is new or changed
 * since `openForUpdate`. A file that does not end with an end-of-line gets one, as part of the update.
 * Throws when nothing changed (an empty update would only add a trailer).
 */
export function appendIncrementalUpdate({ doc, bytes, before }: UpdatableDocument): Buffer {
  const changed: [PDFRef, PDFObject][] = [];
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    const was = before.get(ref.toString());
    if (!was || !unchanged(was, obj)) changed.push([ref, obj]);
  }
  if (!changed.length) throw new Error('nothing to append: no object was added or changed');
  const last = bytes[bytes.length - 1];
  const parts: Buffer[] = [bytes];
  let at = bytes.length;
  if (last !== 0x0a && last !== 0x0d) {
    parts.push(Buffer.from('\n'));
    at += 1;
  }
  const offsets: { ref: PDFRef; at: number }[] = [];
  for (const [ref, obj] of changed) {
    const chunk = serialise(ref, obj);
    offsets.push({ ref, at });
    parts.push(chunk);
    at += chunk.length;
  }
  const ctx = doc.context;
  const trailer = PDFDict.withContext(ctx);
  trailer.set(PDFName.of('Size'), ctx.obj(ctx.largestObjectNumber + 1));
  const { Root, Info, ID } = ctx.trailerInfo;
  if (Root) trailer.set(PDFName.of('Root'), Root);
  if (Info) trailer.set(PDFName.of('Info'), Info);
  if (ID) trailer.set(PDFName.of('ID'), ID);
  trailer.set(PDFName.of('Prev'), ctx.obj(lastStartXref(bytes)));
  parts.push(Buffer.from(`${xrefTable(offsets)}trailer\n${trailer.toString()}\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** Opens `bytes`, lets `change` alter the document, and appends what changed as one incremental update. */
export async function withIncrementalUpdate(bytes: Buffer, change: (doc: PDFDocument) => Promise<void>): Promise<Buffer> {
  const u = await openForUpdate(bytes);
  await change(u.doc);
  await u.doc.flush();
  return appendIncrementalUpdate(u);
}
