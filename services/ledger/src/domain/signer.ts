/**
 * The log's Ed25519 key: signs checkpoints (C2SP signed notes) and ledger seals. The message layouts
 * come from @signet/verify, so the signer and every verifier agree by construction.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { checkpointText, formatSeal, formatVerifierKey, keyId, sealMessage, signatureLine } from '@signet/verify';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Reads LEDGER_SIGNING_KEY: an Ed25519 private key as PKCS#8 PEM, PKCS#8 DER in base64, or the 32-byte seed in base64/base64url.
 * Throws (without echoing the value) when it is neither.
 */
export function parseSigningKey(value: string): KeyObject {
  const v = value.trim();
  let key: KeyObject;
  if (v.startsWith('-----BEGIN')) {
    key = createPrivateKey({ key: v.replace(/\\n/g, '\n'), format: 'pem' });
  } else {
    const raw = Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64');
    if (raw.length === 32)
      key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, raw]), format: 'der', type: 'pkcs8' });
    else if (raw.length > 32) key = createPrivateKey({ key: raw, format: 'der', type: 'pkcs8' });
    else throw new Error('LEDGER_SIGNING_KEY must be an Ed25519 key: PKCS#8 PEM, PKCS#8 DER in base64, or a base64 32-byte seed');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('LEDGER_SIGNING_KEY must be an Ed25519 key');
  return key;
}

export type LogSigner = ReturnType<typeof createLogSigner>;

export function createLogSigner(privateKey: KeyObject, origin: string) {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = spki.subarray(spki.length - 32);
  const id = keyId(origin, publicKey);
  return {
    origin,
    publicKey,
    keyId: id,
    verifierKey: formatVerifierKey(origin, publicKey),
    publicKeyPem: createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString(),
    /** The signed note of the checkpoint for a tree of `size` with `root`. */
    checkpoint(size: number, root: Uint8Array): string {
      const text = checkpointText(origin, size, root);
      const sig = sign(null, Buffer.from(text, 'utf8'), privateKey);
      return `${text}\n${signatureLine(origin, publicKey, sig)}`;
    },
    /** The ledger seal of the leaf at `index` (Ed25519 is deterministic: re-sealing gives the same string). */
    seal(index: number, leaf: Uint8Array): string {
      const sig = sign(null, Buffer.from(sealMessage(origin, index, leaf), 'utf8'), privateKey);
      return formatSeal(id, index, sig);
    },
  };
}
