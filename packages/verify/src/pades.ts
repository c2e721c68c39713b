/**
 * The PAdES seal's CMS (pkijs, asn1js): the signature over the signed byte ranges, the signing
 * certificate's chain to the trusted roots, and the RFC 3161 signature-timestamp token (its imprint
 * over the signature value, its own signature and its TSA's chain). Every check is reported.
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Check } from './bundle.js';

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  commonName: '2.5.4.3',
};

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = () => new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** Every certificate of a PEM text, in order. */
export function parsePemCertificates(pem: string): pkijs.Certificate[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) =>
    pkijs.Certificate.fromBER(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')),
  );
}

/** A certificate's subject common name (or the whole subject). */
export function subjectName(cert: pkijs.Certificate): string {
  const cn = cert.subject.typesAndValues.find((t) => t.type === OID.commonName);
  return cn
    ? String(cn.value.valueBlock.value)
    : cert.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');
}

/** The certificate a SignerInfo names (issuer and serial number). */
function signerCertificate(sd: pkijs.SignedData, si: pkijs.SignerInfo): pkijs.Certificate | undefined {
  const certs = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  if (!(si.sid instanceof pkijs.IssuerAndSerialNumber)) return undefined;
  const sid = si.sid;
  return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
}

/** Whether the certificate chains to one of the roots at `at` (pkijs verifies the last of `certs`). */
async function chains(cert: pkijs.Certificate, pool: pkijs.Certificate[], roots: pkijs.Certificate[], at: Date) {
  if (!roots.length) return { ok: false, why: 'no trusted root is configured' };
  const others = pool.filter((c) => c !== cert);
  const chain = new pkijs.CertificateChainValidationEngine({ trustedCerts: roots, certs: [...others, cert], checkDate: at });
  try {
    const r = await chain.verify(undefined, engine());
    return { ok: r.result, why: r.resultMessage || 'no path to a trusted root' };
  } catch (err) {
    const e = err as { resultMessage?: string; message?: string };
    return { ok: false, why: e.resultMessage || e.message || 'no path to a trusted root' };
  }
}

async function signatureOk(sd: pkijs.SignedData, data?: Uint8Array): Promise<boolean> {
  try {
    const r = await sd.verify(
      { signer: 0, ...(data ? { data: data.slice().buffer } : {}), checkChain: false, extendedMode: true },
      engine(),
    );
    return r.signatureVerified === true;
  } catch {
    return false;
  }
}

function signedDataOf(der: Uint8Array): pkijs.SignedData {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new Error('not DER');
  const ci = new pkijs.ContentInfo({ schema: parsed.result });
  if (ci.contentType !== OID.signedData) throw new Error(`content type ${ci.contentType} is not SignedData`);
  return new pkijs.SignedData({ schema: ci.content });
}

export type CmsReport = {
  checks: Check[];
  /** The signer's common name, and the timestamp's time when it verified. */
  signer?: string;
  timestamp?: Date;
};

/** The timestamp token's checks: imprint over the signature value, its signature, the TSA's chain and purpose. */
async function timestampChecks(si: pkijs.SignerInfo, roots: pkijs.Certificate[], checks: Check[]): Promise<Date | undefined> {
  const attr = si.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken);
  if (!attr) {
    checks.push({ name: 'timestamp', ok: false, detail: 'the seal carries no RFC 3161 signature timestamp (not PAdES B-T)' });
    return undefined;
  }
  try {
    const tsd = signedDataOf(new Uint8Array((attr.values[0] as asn1js.BaseBlock).toBER()));
    const tst = pkijs.TSTInfo.fromBER(tsd.encapContentInfo.eContent!.getValue());
    const imprint = tst.messageImprint.hashedMessage.valueBlock.valueHexView;
    const covers =
      tst.messageImprint.hashAlgorithm.algorithmId === OID.sha256 && same(imprint, sha256(si.signature.valueBlock.valueHexView));
    // For a token pkijs takes the time-stamped data (the seal's signature value) and checks the imprint too.
    const signed = covers && (await signatureOk(tsd, new Uint8Array(si.signature.valueBlock.valueHexView)));
    const tsa = signerCertificate(tsd, tsd.signerInfos[0]!);
    const genTime = tst.genTime;
    const pool = (tsd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    const trust = tsa ? await chains(tsa, pool, roots, genTime) : { ok: false, why: 'the token names no certificate it carries' };
    const eku = tsa?.extensions?.find((e) => e.extnID === OID.extKeyUsage)?.parsedValue as pkijs.ExtKeyUsage | undefined;
    const purpose = eku?.keyPurposes.includes(OID.timeStamping) ?? false;
    const ok = covers && signed && trust.ok && purpose;
    checks.push({
      name: 'timestamp',
      ok,
      detail: ok
        ? `RFC 3161 timestamp ${genTime.toISOString()} over the seal's signature, by ${subjectName(tsa!)} (trusted)`
        : !covers
          ? 'the timestamp token is not over this seal’s signature value'
          : !signed
            ? 'the timestamp token’s signature does not verify'
            : !purpose
              ? 'the timestamp was not made by a time-stamping certificate'
              : `the time-stamping authority is not trusted: ${trust.why}`,
    });
    return ok ? genTime : undefined;
  } catch (err) {
    checks.push({ name: 'timestamp', ok: false, detail: `the timestamp token cannot be read: ${(err as Error).message}` });
    return undefined;
  }
}

/**
 * Checks the CMS of a PAdES signature over `signed` (the byte ranges' concatenation): `integrity`
 * (message digest and signature), `timestamp`, then `certificate` (chain to `roots` at the
 * timestamp's time, else now). Throws when `der` is not a CMS SignedData at all.
 */
export async function verifyPadesCms(der: Uint8Array, signed: Uint8Array, roots: pkijs.Certificate[]): Promise<CmsReport> {
  let sd: pkijs.SignedData;
  try {
    sd = signedDataOf(der);
  } catch (err) {
    throw new Error(`the signature is not a CMS SignedData: ${(err as Error).message}`);
  }
  const si = sd.signerInfos[0];
  if (!si || sd.signerInfos.length !== 1) throw new Error('the signature must have exactly one signer');
  const checks: Check[] = [];
  const cert = signerCertificate(sd, si);
  const digest = si.signedAttrs?.attributes.find((a) => a.type === OID.messageDigest)?.values[0] as
    asn1js.OctetString | undefined;
  const digestOk = !!digest && same(digest.valueBlock.valueHexView, sha256(signed));
  const sigOk = digestOk && !!cert && (await signatureOk(sd, signed));
  checks.push({
    name: 'integrity',
    ok: sigOk,
    detail: !digestOk
      ? 'the file was changed after sealing: its signed bytes do not have the sealed digest'
      : !cert
        ? 'the seal does not carry its signing certificate'
        : sigOk
          ? `the seal's signature over SHA-256 ${sha256(signed).toString('hex')} verifies with the certificate of ${subjectName(cert)}`
          : 'the seal’s signature does not verify with its certificate',
  });
  const timestamp = await timestampChecks(si, roots, checks);
  if (cert) {
    const pool = (sd.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    const trust = await chains(cert, pool, roots, timestamp ?? new Date());
    checks.push({
      name: 'certificate',
      ok: trust.ok,
      detail: trust.ok
        ? `the sealing certificate of ${subjectName(cert)} chains to a trusted root`
        : `the sealing certificate of ${subjectName(cert)} is not trusted: ${trust.why}`,
    });
  } else {
    checks.push({ name: 'certificate', ok: false, detail: 'no signing certificate to check' });
  }
  return { checks, ...(cert ? { signer: subjectName(cert) } : {}), ...(timestamp ? { timestamp } : {}) };
}
