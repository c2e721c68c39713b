/**
 * A Signet signed PDF, checked as a whole (issues 17 and 32): the PAdES seal (pades.ts) over the byte
 * ranges its /ByteRange names, which must cover the whole file but the signature itself — or be
 * followed only by an update that adds validation data (DSS, PAdES B-LT); the first revision — the
 * uploaded document, byte for byte — hashing to the certified `document_sha256`; the embedded cert.json
 * (read from the sealed revision) checked against the log's key and, when given, the witnesses
 * (bundle.ts); and the two agreeing: the seal's /Reason names the certificate that cert.json carries.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import type * as pkijs from 'pkijs';
import { verifyBundle, type Check, type VerifyOptions } from './bundle.js';
import type { LogKey } from './keys.js';
import type { WitnessPolicy } from './witness.js';
import { verifyPadesCms } from './pades.js';

export { parsePemCertificates } from './pades.js';

/** Not a signed PDF at all (not a PDF, no signature, a malformed signature): nothing to report on. */
export class SignedPdfError extends Error {}

/**
 * A log's keys (after a rotation: every key with its period), which log it is, and the witnesses its
 * checkpoints need (the log's own policy, used when the caller gives none: the online check, issue 32).
 */
export type LogKeySet = { keys: readonly LogKey[]; log: 'live' | 'test'; witnesses?: WitnessPolicy };

export type SignedPdfOptions = {
  /** The roots the sealing certificate and the time-stamping authority must chain to. */
  trustRoots: pkijs.Certificate[];
  /** The logs' keys; cert.json's checkpoint names its log (origin). */
  logKeys: LogKeySet[];
} & Pick<VerifyOptions, 'witnesses' | 'remembered' | 'consistency'>;

export type SignedPdfReport = {
  ok: boolean;
  checks: Check[];
  reference?: string;
  log?: 'live' | 'test';
  signer?: string;
  timestamp?: string;
  /** The certificate cert.json carries, when its evidence checks passed (what a reader may then show of it). */
  certificate?: Record<string, unknown>;
  /** The verified checkpoint of cert.json and its note (what a verifier may remember, as with a bundle). */
  checkpoint?: ReturnType<typeof verifyBundle>['checkpoint'];
  checkpointNote?: string;
  /** The length of the first revision (the original document) when it hashes to the certified SHA-256. */
  originalLength?: number;
};

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/**
 * The seal's byte range, checked for shape: [0, a] [b, c] with a hex string between. The seal is the
 * signature (not a document timestamp, /ETSI.RFC3161) that covers the most of the file: signatures
 * the uploaded document carried cover only a part of revision 1.
 */
function byteRange(pdf: Buffer): [number, number, number, number] {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw new SignedPdfError('the file is not a PDF (it does not start with %PDF-)');
  const latin = pdf.toString('latin1');
  const ranges = [...latin.matchAll(BYTE_RANGE)]
    .filter((m) => {
      const objStart = latin.lastIndexOf(' obj', m.index);
      const objEnd = latin.indexOf('endobj', m.index);
      return !latin.slice(objStart, objEnd === -1 ? undefined : objEnd).includes('/ETSI.RFC3161');
    })
    .map((m) => m.slice(1, 5).map(Number) as [number, number, number, number]);
  if (!ranges.length) throw new SignedPdfError('the PDF carries no signature (no /ByteRange)');
  const r = ranges.reduce((a, b) => (b[2] + b[3] > a[2] + a[3] ? b : a));
  const end = r[2] + r[3];
  const gap = r[1] < r[2] ? pdf.subarray(r[1], r[2]).toString('latin1') : '';
  if (r[0] !== 0 || r[1] >= r[2] || end > pdf.length || !/^<[0-9a-fA-F]*>$/.test(gap))
    throw new SignedPdfError('the signature’s /ByteRange does not frame its /Contents: the file was changed or is malformed');
  return r;
}

const EOL = (c: number | undefined) => c === 0x0a || c === 0x0d;
const SPACE = (c: number | undefined) => EOL(c) || c === 0x20 || c === 0x09 || c === 0x00 || c === 0x0c;

/** The first of the candidate ends (ascending, each at most `limit`) where the prefix has SHA-256 `sha256`. */
function firstMatching(signed: Buffer, ends: Iterable<number>, sha256: string): number | undefined {
  const h = createHash('sha256');
  let from = 0;
  for (const end of ends) {
    h.update(signed.subarray(from, end));
    from = end;
    if (h.copy().digest('hex') === sha256) return end;
  }
  return undefined;
}

/** Ends just after each `%%EOF` marker and each white-space byte that follows it. */
function* afterEofMarkers(signed: Buffer, limit: number) {
  for (
    let at = signed.indexOf('%%EOF', 0, 'latin1');
    at !== -1 && at + 5 <= limit;
    at = signed.indexOf('%%EOF', at + 5, 'latin1')
  )
    for (let end = at + 5; end <= limit; end++) {
      yield end;
      if (!SPACE(signed[end])) break;
    }
}

/** Ends at every line: after an end-of-line byte, or before a line feed (the ledger adds one after an upload without). */
function* lineEnds(signed: Buffer, limit: number) {
  for (let end = 1; end <= limit; end++) if (EOL(signed[end - 1]) || signed[end] === 0x0a) yield end;
}

/**
 * The first revision: the prefix of the signed bytes before `limit` (where the seal's value starts)
 * whose SHA-256 is `sha256` — the uploaded document, which the ledger's updates follow. A PDF ends
 * at an `%%EOF` and its line end, tried first; an upload with other bytes after its last `%%EOF` is
 * found at a line end (one SHA-256 pass each: the hash state is copied at each candidate end).
 */
export function findOriginal(signed: Buffer, limit: number, sha256: string): number | undefined {
  return firstMatching(signed, afterEofMarkers(signed, limit), sha256) ?? firstMatching(signed, lineEnds(signed, limit), sha256);
}

/** The check that the first revision is the certified document. */
function originalCheck(pdf: Buffer, sealStart: number, sha256: string): Check & { length?: number } {
  const length = findOriginal(pdf, sealStart, sha256);
  return length !== undefined
    ? {
        name: 'document',
        ok: true,
        length,
        detail: `the first revision (bytes 0–${length}, the original document before Signet's updates) has the certified SHA-256 ${sha256}`,
      }
    : {
        name: 'document',
        ok: false,
        detail: `no revision of the PDF before the seal has the certified document's SHA-256 ${sha256}: the original document was replaced or changed`,
      };
}

const text = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);

/** The signature dictionary whose /ByteRange is `r`, in the sealed revision. */
function signatureDict(doc: PDFDocument, r: number[]): PDFDict | undefined {
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict)) continue;
    const br = obj.get(PDFName.of('ByteRange'));
    if (br instanceof PDFArray && br.asArray().every((n, i) => n.toString() === String(r[i]))) return obj;
  }
  return undefined;
}

/** The embedded file of this name (the catalog's /Names /EmbeddedFiles name tree), decoded. */
function embeddedFile(doc: PDFDocument, name: string): Buffer | undefined {
  const lookup = (o: unknown) => (o instanceof PDFRef ? doc.context.lookup(o) : o);
  const names = lookup(doc.catalog.get(PDFName.of('Names')));
  const walk = (node: unknown, depth: number): Buffer | undefined => {
    const n = lookup(node);
    if (!(n instanceof PDFDict) || depth > 8) return undefined;
    const pairs = lookup(n.get(PDFName.of('Names')));
    if (pairs instanceof PDFArray)
      for (let i = 0; i + 1 < pairs.size(); i += 2) {
        if (text(lookup(pairs.get(i))) !== name) continue;
        const spec = lookup(pairs.get(i + 1));
        const ef = spec instanceof PDFDict ? lookup(spec.get(PDFName.of('EF'))) : undefined;
        const stream = ef instanceof PDFDict ? lookup(ef.get(PDFName.of('F'))) : undefined;
        if (stream instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(stream).decode());
      }
    const kids = lookup(n.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray)
      for (const k of kids.asArray()) {
        const found = walk(k, depth + 1);
        if (found) return found;
      }
    return undefined;
  };
  return names instanceof PDFDict ? walk(names.get(PDFName.of('EmbeddedFiles')), 0) : undefined;
}

/**
 * An invisible signature field of a document timestamp (PAdES B-LTA): a widget of /FT /Sig with a
 * zero-area /Rect whose /V is a /Type /DocTimeStamp dictionary. It shows nothing on the page.
 */
function isDocTimestampField(doc: PDFDocument, o: unknown): boolean {
  const w = o instanceof PDFRef ? doc.context.lookup(o) : o;
  if (!(w instanceof PDFDict) || w.get(PDFName.of('FT'))?.toString() !== '/Sig') return false;
  const rect = w.lookup(PDFName.of('Rect'));
  const n = rect instanceof PDFArray ? rect.asArray().map((x) => Number(x.toString())) : [];
  if (n.length !== 4 || (n[0] !== n[2] && n[1] !== n[3])) return false;
  const v = w.lookup(PDFName.of('V'));
  return v instanceof PDFDict && v.get(PDFName.of('Type'))?.toString() === '/DocTimeStamp';
}

/** An array that keeps every element it had and only adds document-timestamp fields (a page's /Annots, the form's /Fields). */
function addsOnlyDocTimestamps(doc: PDFDocument, before: unknown, after: unknown): boolean {
  const b = before instanceof PDFRef ? doc.context.lookup(before) : before;
  const a = after instanceof PDFRef ? doc.context.lookup(after) : after;
  const was = b instanceof PDFArray ? b.asArray().map(String) : b === undefined ? [] : null;
  if (!was || !(a instanceof PDFArray) || a.size() < was.length) return false;
  const now = a.asArray();
  return was.every((x, i) => String(now[i]) === x) && now.slice(was.length).every((x) => isDocTimestampField(doc, x));
}

/**
 * Whether an existing dictionary changed only by what a document timestamp update does: /Annots or
 * /Fields extended with document-timestamp fields, /SigFlags set, a direct /AcroForm changed so.
 */
function docTimestampChange(doc: PDFDocument, before: PDFDict, after: PDFDict): boolean {
  const keys = new Set([...before.keys(), ...after.keys()].map((k) => k.asString()));
  for (const k of keys) {
    const [b, a] = [before.get(PDFName.of(k.slice(1))), after.get(PDFName.of(k.slice(1)))];
    if (b?.toString() === a?.toString() || k === '/SigFlags') continue;
    if ((k === '/Annots' || k === '/Fields') && addsOnlyDocTimestamps(doc, b, a)) continue;
    if (k === '/AcroForm' && (b === undefined || b instanceof PDFDict) && a instanceof PDFDict)
      if (docTimestampChange(doc, b ?? PDFDict.withContext(doc.context), a)) continue;
    return false;
  }
  return true;
}

/**
 * What the bytes after the sealed revision do. Allowed: incremental updates whose only changes to
 * existing objects are a /DSS entry added to the catalog (new objects then hang from it) and the
 * invisible fields of document timestamps (B-LTA) added to the form and a page. Anything else — a
 * changed page, annotation, visible form field or metadata — is reported.
 */
async function appendedUpdate(sealed: PDFDocument, whole: Buffer): Promise<string | null> {
  let full: PDFDocument;
  try {
    full = await PDFDocument.load(whole, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return 'bytes after the sealed revision that are not a readable PDF update';
  }
  const root = sealed.context.trailerInfo.Root;
  if (String(full.context.trailerInfo.Root) !== String(root)) return 'an update replaces the document catalog';
  if (String(full.context.trailerInfo.Info) !== String(sealed.context.trailerInfo.Info))
    return 'an update replaces the document information';
  for (const [ref, obj] of full.context.enumerateIndirectObjects()) {
    const before = sealed.context.lookup(ref);
    if (!before || before.toString() === obj.toString()) continue;
    if (before instanceof PDFArray && addsOnlyDocTimestamps(full, before, obj)) continue;
    if (
      String(ref) !== String(root) &&
      before instanceof PDFDict &&
      obj instanceof PDFDict &&
      docTimestampChange(full, before, obj)
    )
      continue;
    if (String(ref) !== String(root) || !(before instanceof PDFDict) || !(obj instanceof PDFDict))
      return `an update changes object ${ref.objectNumber} of the sealed document`;
    for (const [k, v] of obj.entries()) {
      if (k.asString() === '/DSS') continue;
      if (k.asString() === '/AcroForm' && v instanceof PDFDict) {
        const was = before.get(k);
        if (was === undefined || (was instanceof PDFDict && docTimestampChange(full, was, v))) continue;
      }
      if (before.get(k)?.toString() !== v.toString()) return `an update changes the catalog’s ${k.asString()}`;
    }
    for (const [k] of before.entries()) if (!obj.has(k)) return `an update removes the catalog’s ${k.asString()}`;
  }
  return null;
}

/** The seal's CMS and the sealed revision, read from `pdf`; SignedPdfError when either cannot be read. */
async function readSeal(pdf: Buffer, r: [number, number, number, number], trustRoots: pkijs.Certificate[]) {
  const end = r[2] + r[3];
  const signedBytes = Buffer.concat([pdf.subarray(0, r[1]), pdf.subarray(r[2], end)]);
  const der = Buffer.from(pdf.subarray(r[1] + 1, r[2] - 1).toString('latin1'), 'hex');
  let cms;
  try {
    cms = await verifyPadesCms(der, signedBytes, trustRoots);
  } catch (err) {
    throw new SignedPdfError((err as Error).message);
  }
  let sealed: PDFDocument;
  try {
    sealed = await PDFDocument.load(pdf.subarray(0, end), { updateMetadata: false, ignoreEncryption: true });
  } catch (err) {
    throw new SignedPdfError(`the sealed revision is not a readable PDF: ${(err as Error).message}`);
  }
  return { cms, sealed, end };
}

/** `coverage`: the seal covers the whole file, or what follows it only maintains it (DSS, document timestamps). */
async function coverageCheck(sealed: PDFDocument, pdf: Buffer, end: number): Promise<Check> {
  const after = end === pdf.length ? null : await appendedUpdate(sealed, pdf);
  return {
    name: 'coverage',
    ok: after === null,
    detail:
      after !== null
        ? `the seal does not cover the whole file: ${pdf.length - end} bytes were added after sealing (${after})`
        : end === pdf.length
          ? `the seal covers the whole file (${pdf.length} bytes) but its own signature value`
          : `the seal covers the whole file but its own signature value and later updates (${pdf.length - end} bytes) that only add validation data (DSS) and document timestamps`,
  };
}

type Bundle = { checkpoint?: unknown; certificate?: { reference?: unknown; document_sha256?: unknown } };

/** cert.json of the sealed revision, parsed; a check saying why when there is none or it is not JSON. */
function embeddedBundle(sealed: PDFDocument): { bundle: Bundle } | { check: Check } {
  const json = embeddedFile(sealed, 'cert.json');
  let bundle: Bundle | undefined;
  try {
    bundle = json ? (JSON.parse(json.toString('utf8')) as Bundle) : undefined;
  } catch {
    bundle = undefined;
  }
  if (bundle && typeof bundle === 'object') return { bundle };
  const detail = json ? 'the embedded cert.json is not JSON' : 'no embedded cert.json in the sealed revision';
  return { check: { name: 'evidence', ok: false, detail } };
}

/** `consistency`: the seal's /Reason (inside the signed bytes) names the certificate cert.json carries. */
function consistencyCheck(sealed: PDFDocument, r: number[], reference: string | undefined): Check {
  const reason = text(signatureDict(sealed, r)?.get(PDFName.of('Reason')));
  const named = /\b([A-Z0-9]{2,8}-TX-\d{8})\b/.exec(reason ?? '')?.[1];
  return named && named === reference
    ? { name: 'consistency', ok: true, detail: `the seal is for certificate ${named}, the one cert.json carries` }
    : {
        name: 'consistency',
        ok: false,
        detail: `the seal is for ${named ? `certificate ${named}` : 'no named certificate'}, but cert.json carries ${reference ?? 'none'}`,
      };
}

/** Checks a signed PDF; throws SignedPdfError when it is not one. Every check is reported; `ok` when all pass. */
export async function verifySignedPdf(bytes: Uint8Array, opts: SignedPdfOptions): Promise<SignedPdfReport> {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = byteRange(pdf);
  const { cms, sealed, end } = await readSeal(pdf, r, opts.trustRoots);
  const checks: Check[] = [await coverageCheck(sealed, pdf, end), ...cms.checks];
  const report: SignedPdfReport = {
    ok: false,
    checks,
    ...(cms.signer ? { signer: cms.signer } : {}),
    ...(cms.timestamp ? { timestamp: cms.timestamp.toISOString() } : {}),
  };
  const embedded = embeddedBundle(sealed);
  if ('check' in embedded) {
    checks.push(embedded.check);
    return report;
  }
  const { bundle } = embedded;
  const origin = typeof bundle.checkpoint === 'string' ? bundle.checkpoint.split('\n')[0] : undefined;
  const logKey = opts.logKeys.find((k) => k.keys.some((key) => key.name === origin));
  if (!logKey) {
    checks.push({ name: 'evidence', ok: false, detail: `cert.json's checkpoint is of an unknown log (${origin ?? 'none'})` });
    return report;
  }
  const { remembered, consistency } = opts;
  const witnesses = opts.witnesses ?? logKey.witnesses;
  const proof = verifyBundle(bundle, { key: logKey.keys, witnesses, remembered, consistency });
  checks.push(...proof.checks.map((c) => ({ ...c, name: `evidence ${c.name}` })));
  report.log = logKey.log;
  if (proof.reference) report.reference = proof.reference;
  if (proof.checkpoint) Object.assign(report, { checkpoint: proof.checkpoint, checkpointNote: bundle.checkpoint });
  if (proof.ok) report.certificate = (bundle as { certificate: Record<string, unknown> }).certificate;
  const certified = bundle.certificate?.document_sha256;
  const original =
    typeof certified === 'string' && /^[0-9a-f]{64}$/.test(certified)
      ? originalCheck(pdf, r[1], certified)
      : { name: 'document', ok: false, detail: 'cert.json names no certified document SHA-256' };
  checks.push({ name: original.name, ok: original.ok, detail: original.detail });
  if ('length' in original && original.length !== undefined) report.originalLength = original.length;
  checks.push(consistencyCheck(sealed, r, proof.reference));
  report.ok = checks.every((c) => c.ok);
  return report;
}
