/**
 * The PAdES signature's CMS (pkijs): SignedData, detached, signed attributes content-type,
 * message-digest and signing-certificate-v2 (ESS, RFC 5035), and the RFC 3161 signature-timestamp
 * token over the signature value as an unsigned attribute (PAdES B-T). No signing-time attribute:
 * PAdES puts the claimed time in the signature dictionary.
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { Signer } from '@signpdf/utils';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  rsa: '1.2.840.113549.1.1.1',
  ec: '1.2.840.10045.2.1',
};

/** Asks a time-stamping authority for a token over these bytes; throws when none answers. */
export type Timestamper = (data: Uint8Array) => Promise<Uint8Array>;

export type SealKey = { certificates: pkijs.Certificate[]; privateKey: webcrypto.CryptoKey };

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = () => new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });

/** Every certificate of a PEM text, in order (the sealing certificate first). */
export function parseCertificates(pem: string): pkijs.Certificate[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  if (!blocks.length) throw new Error('no certificate in LEDGER_SEAL_CERT');
  return blocks.map((m) => pkijs.Certificate.fromBER(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

/** The sealing key (PKCS#8 PEM) for the first certificate's public key algorithm (RSA or ECDSA P-256). */
export async function loadSealKey(certPem: string, keyPem: string): Promise<SealKey> {
  const certificates = parseCertificates(certPem);
  const der = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(keyPem)?.[1];
  if (!der) throw new Error('LEDGER_SEAL_KEY must be a PKCS#8 PEM private key');
  const alg = certificates[0]!.subjectPublicKeyInfo.algorithm.algorithmId;
  const params =
    alg === OID.rsa
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : alg === OID.ec
        ? { name: 'ECDSA', namedCurve: 'P-256' }
        : null;
  if (!params) throw new Error(`unsupported sealing key algorithm ${alg}`);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', Buffer.from(der.replace(/\s+/g, ''), 'base64'), params, false, [
    'sign',
  ]);
  return { certificates, privateKey };
}

const sha256 = (b: Uint8Array | ArrayBuffer) => createHash('sha256').update(new Uint8Array(b)).digest();

/** ESS signing-certificate-v2 of the sealing certificate: its SHA-256 (the default algorithm) and issuer/serial. */
function signingCertificateV2(cert: pkijs.Certificate): asn1js.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: sha256(cert.toSchema().toBER()) }), issuerSerial.toSchema()],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/** The @signpdf signer: `sign(bytes)` returns the DER ContentInfo that goes into /Contents. */
export class CadesSigner extends Signer {
  constructor(
    private key: SealKey,
    private timestamp: Timestamper,
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const [cert] = this.key.certificates;
    const crypto = engine();
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates: this.key.certificates,
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert!.issuer, serialNumber: cert!.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
              new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: sha256(pdfBuffer) })] }),
              new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(cert!)] }),
            ],
          }),
        }),
      ],
    });
    await signedData.sign(this.key.privateKey, 0, 'SHA-256', undefined, crypto);
    const signerInfo = signedData.signerInfos[0]!;
    const token = await this.timestamp(signerInfo.signature.valueBlock.valueHexView);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asn1js.fromBER(token).result] })],
    });
    const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(contentInfo.toSchema().toBER());
  }
}
