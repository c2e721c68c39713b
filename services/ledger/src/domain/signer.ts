/**
 * The log's Ed25519 key: signs checkpoints (C2SP signed notes) and ledger seals. The message layouts
 * come from @signet/verify, so the signer and every verifier agree by construction.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import {
  checkpointText,
  ed25519PublicKey,
  formatSeal,
  formatVerifierKey,
  keyId,
  parseServedKeys,
  sealMessage,
  signatureLine,
} from '@signet/verify';

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

/** A key the log signed with before a rotation: its public half and the period it signed in. */
export type RetiredKey = { publicKey: Buffer; notBefore?: Date; notAfter: Date };

/** A key as GET /api/ledger/public-key lists it (times RFC 3339, '' when open). */
export type PublishedKey = {
  keyId: string;
  verifierKey: string;
  publicKey: Buffer;
  publicKeyPem: string;
  notBefore: string;
  notAfter: string;
  current: boolean;
};

/**
 * Reads LEDGER_RETIRED_KEYS: a JSON array of the log's earlier keys as the public-key route listed
 * them, `[{"verifier_key": "<origin>+<key id>+<base64>", "not_before": "<RFC 3339>", "not_after": "<RFC 3339>"}]`
 * (not_after required: when the key stopped signing). Each must be a key of `origin`. Throws with the reason.
 */
export function parseRetiredKeys(value: string | undefined, origin: string): RetiredKey[] {
  if (!value?.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('must be a JSON array of {verifier_key, not_before, not_after}');
  }
  if (!Array.isArray(json)) throw new Error('must be a JSON array of {verifier_key, not_before, not_after}');
  if (json.length === 0) return [];
  return parseServedKeys({ keys: json }).map((k, i) => {
    if (k.name !== origin) throw new Error(`entry ${i} is a key of ${k.name}, not of this log (${origin})`);
    if (!k.notAfter) throw new Error(`entry ${i} has no not_after (when the key stopped signing)`);
    return { publicKey: Buffer.from(k.publicKey), notBefore: k.notBefore, notAfter: k.notAfter };
  });
}

const iso = (d: Date | undefined) => (d ? d.toISOString() : '');

export type LogSigner = ReturnType<typeof createLogSigner>;

/**
 * The log's signer: signs with the current key; `keys` lists it (first, from `notBefore`) and the
 * retired keys with their periods, for verifiers of what the retired keys signed.
 */
export function createLogSigner(
  privateKey: KeyObject,
  origin: string,
  rotation: { retired?: RetiredKey[]; notBefore?: Date } = {},
) {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = spki.subarray(spki.length - 32);
  const id = keyId(origin, publicKey);
  const publicKeyPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString();
  const keys: PublishedKey[] = [
    {
      keyId: id.toString('hex'),
      verifierKey: formatVerifierKey(origin, publicKey),
      publicKey: Buffer.from(publicKey),
      publicKeyPem,
      notBefore: iso(rotation.notBefore),
      notAfter: '',
      current: true,
    },
    ...(rotation.retired ?? []).map((r) => ({
      keyId: keyId(origin, r.publicKey).toString('hex'),
      verifierKey: formatVerifierKey(origin, r.publicKey),
      publicKey: r.publicKey,
      publicKeyPem: ed25519PublicKey(r.publicKey).export({ format: 'pem', type: 'spki' }).toString(),
      notBefore: iso(r.notBefore),
      notAfter: iso(r.notAfter),
      current: false,
    })),
  ];
  return {
    keys,
    origin,
    publicKey,
    keyId: id,
    verifierKey: formatVerifierKey(origin, publicKey),
    publicKeyPem,
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
