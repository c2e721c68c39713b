/**
 * The TEST seal (test mode, issue 32 item 6): the certificate that seals the signed PDFs of test
 * transactions. Its own chain, never under the live roots: LEDGER_TEST_SEAL_CERT/KEY when the operator
 * gives one, else a self-signed certificate made at start (ECDSA P-256, pkijs) whose subject says what
 * it is. A validator trusting the live roots reports the seal untrusted; the log key and the banner
 * on every page say TEST as well.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { loadSealKey, type SealKey } from './cades-signer.js';

/** Stamped on every page of a test-mode signed PDF and its audit trail. */
export const TEST_BANNER = 'TEST — not a valid signature';
/** The generated TEST seal's common name (shown by readers as the signer). */
export const TEST_SEAL_NAME = 'Signet TEST seal - not a valid signature';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const OID = { cn: '2.5.4.3', o: '2.5.4.10', keyUsage: '2.5.29.15', basicConstraints: '2.5.29.19' };

function testName(): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: OID.o, value: new asn1js.Utf8String({ value: 'Signet test mode' }) }),
      new pkijs.AttributeTypeAndValue({ type: OID.cn, value: new asn1js.Utf8String({ value: TEST_SEAL_NAME }) }),
    ],
  });
}

/** A self-signed end-entity certificate for signatures (digitalSignature, nonRepudiation), valid ten years from a day ago. */
export async function generateTestSeal(now = new Date()): Promise<SealKey> {
  const crypto = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.issuer = testName();
  cert.subject = testName();
  cert.notBefore.value = new Date(now.getTime() - 86_400_000);
  cert.notAfter.value = new Date(now.getTime() + 10 * 365 * 86_400_000);
  // digitalSignature (bit 0) and nonRepudiation (bit 1): 0b11000000, 6 unused bits.
  const usage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: usage.toBER(false) }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey, crypto);
  await cert.sign(keys.privateKey, 'SHA-256', crypto);
  return { certificates: [cert], privateKey: keys.privateKey };
}

/** The operator's TEST seal (both PEMs), else a generated one. */
export async function testSealKey(pems: { certPem?: string; keyPem?: string }): Promise<SealKey> {
  if (pems.certPem && pems.keyPem) return loadSealKey(pems.certPem, pems.keyPem);
  return generateTestSeal();
}
