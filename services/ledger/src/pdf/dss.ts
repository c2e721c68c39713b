/**
 * PAdES B-LT (issue 17): after the B-T seal, the validation data — the certificates of the seal's
 * chain and of the time-stamping authority's, and the CRLs their CRL distribution points serve —
 * goes into a Document Security Store (/DSS in the catalog) written as an incremental update, so
 * the sealed bytes stay as they are and the seal can be checked later without the network. The
 * certificates are the DER the CMS carries; the CRLs are the bytes the responders served (pkijs
 * only reads them to check they are CRLs of the right issuer that do not revoke the certificate).
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDocument, PDFName, PDFRef, type PDFObject } from 'pdf-lib';
import { withIncrementalUpdate } from './incremental.js';

const CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

/** Fetches the bytes at a URL (a CRL); throws when it cannot. */
export type FetchBytes = (url: string) => Promise<Uint8Array>;

export const fetchBytes =
  (timeoutMs = 10_000): FetchBytes =>
  async (url) => {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`GET ${new URL(url).host}${new URL(url).pathname}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };

function signedDataOf(der: Uint8Array): pkijs.SignedData {
  const ci = new pkijs.ContentInfo({ schema: asn1js.fromBER(der).result });
  return new pkijs.SignedData({ schema: ci.content });
}

const certsOf = (sd: pkijs.SignedData) =>
  (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);

/**
 * The seal's certificates and its timestamp's, from the signature's /Contents. The seal is the last
 * signature of the file: a signature the uploaded document carried comes before it.
 */
function validationCertificates(pdf: Buffer): pkijs.Certificate[] {
  const m = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].pop();
  if (!m) throw new Error('the PDF has no signature to add validation data for');
  const der = Buffer.from(pdf.subarray(Number(m[2]) + 1, Number(m[3]) - 1).toString('latin1'), 'hex');
  const seal = signedDataOf(der);
  const tst = seal.signerInfos[0]?.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP);
  if (!tst) throw new Error('the seal has no signature timestamp (B-LT needs B-T)');
  const stamp = signedDataOf(new Uint8Array((tst.values[0] as asn1js.BaseBlock).toBER()));
  const all = [...certsOf(seal), ...certsOf(stamp)];
  const der64 = (c: pkijs.Certificate) => Buffer.from(c.toSchema().toBER()).toString('base64');
  return all.filter((c, i) => all.findIndex((d) => der64(d) === der64(c)) === i);
}

/** The http(s) URLs of a certificate's CRL distribution points. */
function crlUrls(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS);
  const points = (ext?.parsedValue as pkijs.CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  return points.flatMap((p) =>
    Array.isArray(p.distributionPoint)
      ? p.distributionPoint.filter((n) => n.type === 6 && /^https?:\/\//.test(String(n.value))).map((n) => String(n.value))
      : [],
  );
}

/** The CRLs of the certificates that name one, each checked to be its issuer's and not to revoke it. */
export async function crlsFor(certs: pkijs.Certificate[], get: FetchBytes): Promise<Uint8Array[]> {
  const byUrl = new Map<string, Uint8Array>();
  for (const cert of certs) {
    const urls = crlUrls(cert);
    if (!urls.length) continue;
    let got: Uint8Array | undefined;
    const failures: string[] = [];
    for (const url of urls) {
      try {
        got = byUrl.get(url) ?? (await get(url));
        const crl = pkijs.CertificateRevocationList.fromBER(got);
        if (!crl.issuer.isEqual(cert.issuer)) throw new Error('a CRL of another issuer');
        if (crl.revokedCertificates?.some((r) => r.userCertificate.isEqual(cert.serialNumber)))
          throw new Error(`certificate ${cert.serialNumber.valueBlock.toString()} is revoked`);
        byUrl.set(url, got);
        break;
      } catch (err) {
        got = undefined;
        failures.push(`${url}: ${(err as Error).message}`);
      }
    }
    if (!got) throw new Error(`no CRL for the validation data: ${failures.join('; ')}`);
  }
  return [...byUrl.values()];
}

const bytesOf = (o: PDFObject) => {
  const out = new Uint8Array(o.sizeInBytes());
  o.copyBytesInto(out, 0);
  return Buffer.from(out);
};

/**
 * Appends objects as an incremental update (PDF 32000-1 §7.5.6): each object, then an xref section
 * for them and a trailer with /Prev. The bytes before are kept as they are. (The DSS itself now goes
 * through incremental.ts, which also finds what changed and numbers new objects above the file's
 * /Size; this stays for the document timestamp's caller.)
 */
export function appendUpdate(pdf: Buffer, doc: PDFDocument, objects: [PDFRef, PDFObject][]): Buffer {
  const prev = [...pdf.toString('latin1').matchAll(/startxref\s+(\d+)/g)].pop()?.[1];
  if (!prev) throw new Error('the PDF has no startxref');
  const parts: Buffer[] = [pdf, Buffer.from('\n')];
  let at = pdf.length + 1;
  const offsets: [number, number][] = [];
  for (const [ref, obj] of objects) {
    const bytes = Buffer.concat([
      Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`),
      bytesOf(obj),
      Buffer.from('\nendobj\n'),
    ]);
    offsets.push([ref.objectNumber, at]);
    parts.push(bytes);
    at += bytes.length;
  }
  const xref = ['xref', ...offsets.flatMap(([n, off]) => [`${n} 1`, `${String(off).padStart(10, '0')} 00000 n \n`.slice(0, -1)])];
  const trailer = doc.context.obj({});
  const size = Math.max(doc.context.largestObjectNumber, ...objects.map(([r]) => r.objectNumber)) + 1;
  trailer.set(PDFName.of('Size'), doc.context.obj(size));
  const { Root, Info, ID } = doc.context.trailerInfo;
  if (Root) trailer.set(PDFName.of('Root'), Root);
  if (Info) trailer.set(PDFName.of('Info'), Info);
  if (ID) trailer.set(PDFName.of('ID'), ID);
  trailer.set(PDFName.of('Prev'), doc.context.obj(Number(prev)));
  parts.push(Buffer.from(`${xref.join('\n')}\ntrailer\n${trailer.toString()}\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** The B-T signed PDF with its validation data (DSS) appended as an incremental update: PAdES B-LT. */
export async function addValidationData(signed: Buffer, get: FetchBytes): Promise<Buffer> {
  const certs = validationCertificates(signed);
  const crls = await crlsFor(certs, get);
  return withIncrementalUpdate(signed, async (doc) => {
    const ctx = doc.context;
    const certRefs = certs.map((c) => ctx.register(ctx.flateStream(new Uint8Array(c.toSchema().toBER()))));
    const crlRefs = crls.map((c) => ctx.register(ctx.flateStream(c)));
    const dss = ctx.obj({});
    const arr = (refs: PDFRef[]) => {
      const a = PDFArray.withContext(ctx);
      for (const r of refs) a.push(r);
      return a;
    };
    dss.set(PDFName.of('Certs'), arr(certRefs));
    if (crlRefs.length) dss.set(PDFName.of('CRLs'), arr(crlRefs));
    doc.catalog.set(PDFName.of('DSS'), ctx.register(dss));
  });
}
