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

/**
 * The offset the file's last `startxref` names, when a cross-reference section (a table, or a stream
 * object) is there: the /Prev of the next update. Null for a file without a usable one (pdf-lib and
 * most readers open such files by scanning for objects).
 */
export function lastStartXref(bytes: Buffer): number | null {
  const m = [...bytes.toString('latin1').matchAll(/startxref\s+(\d+)/g)].pop();
  const at = m ? Number(m[1]) : NaN;
  if (!(at >= 0 && at < bytes.length)) return null;
  const there = bytes.subarray(at, at + 32).toString('latin1');
  return /^(xref|\d+\s+\d+\s+obj)/.test(there) ? at : null;
}

/** Where each object of the file starts, by scanning (the last definition of a number wins, as in an update). */
function scannedOffsets(bytes: Buffer): Map<string, number> {
  const found = new Map<string, number>();
  for (const m of bytes.toString('latin1').matchAll(/(?<![\d.])(\d+)\s+(\d+)\s+obj\b/g))
    found.set(`${Number(m[1])} ${Number(m[2])} R`, m.index);
  return found;
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

/**
 * The xref table of the written objects, one subsection per run of consecutive object numbers; a
 * complete one (no /Prev) starts with the free head of the list, object 0.
 */
function xrefTable(offsets: { ref: PDFRef; at: number }[], complete: boolean): string {
  const sorted = [...offsets].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  const lines = ['xref'];
  if (complete) lines.push('0 1', '0000000000 65535 f\r');
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
  const prev = lastStartXref(bytes);
  // Without a cross-reference section to chain to, this one indexes every object of the file.
  if (prev === null) {
    const written = new Set(offsets.map((o) => o.ref.toString()));
    const scanned = scannedOffsets(bytes);
    for (const [ref] of doc.context.enumerateIndirectObjects()) {
      const found = scanned.get(ref.toString());
      if (!written.has(ref.toString()) && found !== undefined) offsets.push({ ref, at: found });
    }
  }
  parts.push(
    Buffer.from(`${xrefTable(offsets, prev === null)}trailer\n${trailerOf(doc, prev).toString()}\nstartxref\n${at}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

function trailerOf(doc: PDFDocument, prev: number | null): PDFDict {
  const ctx = doc.context;
  const trailer = PDFDict.withContext(ctx);
  trailer.set(PDFName.of('Size'), ctx.obj(ctx.largestObjectNumber + 1));
  const { Root, Info, ID } = ctx.trailerInfo;
  if (Root) trailer.set(PDFName.of('Root'), Root);
  if (Info) trailer.set(PDFName.of('Info'), Info);
  if (ID) trailer.set(PDFName.of('ID'), ID);
  if (prev !== null) trailer.set(PDFName.of('Prev'), ctx.obj(prev));
  return trailer;
}

/** Opens `bytes`, lets `change` alter the document, and appends what changed as one incremental update. */
export async function withIncrementalUpdate(bytes: Buffer, change: (doc: PDFDocument) => Promise<void>): Promise<Buffer> {
  const u = await openForUpdate(bytes);
  await change(u.doc);
  await u.doc.flush();
  return appendIncrementalUpdate(u);
}
