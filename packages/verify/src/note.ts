/**
 * C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 signatures, C2SP tlog checkpoints
 * (https://c2sp.org/tlog-checkpoint), and the Signet ledger seal. Verification only needs the
 * public key; the ledger signs with the same message layouts defined here.
 */
import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';

/** Signature type identifier of Ed25519 in the signed-note key id. */
export const ED25519_ALG = 0x01;
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export type VerifierKey = { name: string; keyId: Buffer; publicKey: Buffer };

/** Key id = first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key). */
export function keyId(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from(name, 'utf8'))
    .update(Buffer.from([0x0a, ED25519_ALG]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** The verifier key string: <name>+<hex key id>+<base64(0x01 ‖ public key)>. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  return `${name}+${keyId(name, publicKey).toString('hex')}+${Buffer.concat([Buffer.from([ED25519_ALG]), publicKey]).toString('base64')}`;
}

function validKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** Parses a verifier key string; throws with the reason when it is malformed or its key id does not match. */
export function parseVerifierKey(vkey: string): VerifierKey {
  // The name has no "+"; the base64 key may.
  const m = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(vkey.trim());
  if (!m) throw new Error('verifier key must be <name>+<key id>+<base64 key>');
  const [, name, idHex, b64] = m as unknown as [string, string, string, string];
  if (!validKeyName(name)) throw new Error('verifier key name is empty or has spaces or "+"');
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new Error('verifier key id must be 8 lower-case hex characters');
  if (!/^[A-Za-z0-9+/]+=*$/.test(b64)) throw new Error('verifier key is not base64');
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw[0] !== ED25519_ALG) throw new Error('verifier key is not an Ed25519 key');
  const publicKey = raw.subarray(1);
  const id = keyId(name, publicKey);
  if (id.toString('hex') !== idHex) throw new Error('verifier key id does not match its name and key');
  return { name, keyId: id, publicKey };
}

export function ed25519PublicKey(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verifySignature(null, message, ed25519PublicKey(publicKey), signature);
  } catch {
    return false;
  }
}

export type NoteSignature = { name: string; keyId: Buffer; signature: Buffer };
export type Note = { text: string; signatures: NoteSignature[] };

/** Splits a signed note into its text and signature lines. Throws on a malformed note. */
export function parseNote(note: string): Note {
  if (note.includes('\r')) throw new Error('note must not contain carriage returns');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('note has no signature block');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (!block.endsWith('\n')) throw new Error('note signature block must end with a newline');
  const signatures: NoteSignature[] = [];
  for (const line of block.slice(0, -1).split('\n')) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/u.exec(line);
    if (!m) throw new Error('malformed note signature line');
    const raw = Buffer.from(m[2]!, 'base64');
    if (raw.length < 5) throw new Error('note signature too short');
    signatures.push({ name: m[1]!, keyId: raw.subarray(0, 4), signature: raw.subarray(4) });
  }
  if (signatures.length === 0) throw new Error('note has no signatures');
  return { text, signatures };
}

/** The note text if a signature by `key` (same name and key id) verifies over it; null otherwise. */
export function verifyNote(note: string, key: VerifierKey): string | null {
  let parsed: Note;
  try {
    parsed = parseNote(note);
  } catch {
    return null;
  }
  const text = Buffer.from(parsed.text, 'utf8');
  for (const s of parsed.signatures) {
    if (s.name === key.name && s.keyId.equals(key.keyId) && ed25519Verify(key.publicKey, text, s.signature)) return parsed.text;
  }
  return null;
}

/** Formats one signature line: "— <name> <base64(key id ‖ signature)>\n". */
export function signatureLine(name: string, publicKey: Uint8Array, signature: Uint8Array): string {
  return `\u2014 ${name} ${Buffer.concat([keyId(name, publicKey), signature]).toString('base64')}\n`;
}

export type Checkpoint = { origin: string; size: number; root: Buffer; extensions: string[] };

/** The checkpoint body: origin, decimal tree size, base64 root hash, each on its own line. */
export function checkpointText(origin: string, size: number, root: Uint8Array): string {
  return `${origin}\n${size}\n${Buffer.from(root).toString('base64')}\n`;
}

/** Parses a checkpoint body (the note text). Throws on a malformed one. */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new Error('checkpoint must end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new Error('checkpoint must have origin, size and root lines');
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (!origin) throw new Error('checkpoint origin is empty');
  if (!/^(0|[1-9]\d*)$/.test(sizeLine)) throw new Error('checkpoint size is not a decimal number');
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) throw new Error('checkpoint size is too large');
  const root = Buffer.from(rootLine, 'base64');
  if (root.length !== 32 || root.toString('base64') !== rootLine) throw new Error('checkpoint root is not a base64 SHA-256 hash');
  if (extensions.some((e) => e === '')) throw new Error('checkpoint has an empty extension line');
  return { origin, size, root, extensions };
}

/** A verified checkpoint: the note signed by `key`, whose origin is the key's name. Null if any of that fails. */
export function verifyCheckpoint(note: string, key: VerifierKey): Checkpoint | null {
  const text = verifyNote(note, key);
  if (text === null) return null;
  try {
    const cp = parseCheckpoint(text);
    return cp.origin === key.name ? cp : null;
  } catch {
    return null;
  }
}

/**
 * The ledger seal binds a certificate (its leaf hash) to its position in one log (origin and leaf
 * index) under the log key, like a signed certificate timestamp: "v1.<key id hex>.<leaf index>.<base64url Ed25519 signature>".
 * The signed message is this exact text.
 */
export function sealMessage(origin: string, leafIndex: number, leafHashValue: Uint8Array): string {
  return `signet-ledger-seal/v1\n${origin}\n${leafIndex}\n${Buffer.from(leafHashValue).toString('base64')}\n`;
}

export type Seal = { keyId: Buffer; leafIndex: number; signature: Buffer };

export function formatSeal(id: Uint8Array, leafIndex: number, signature: Uint8Array): string {
  return `v1.${Buffer.from(id).toString('hex')}.${leafIndex}.${Buffer.from(signature).toString('base64url')}`;
}

export function parseSeal(seal: string): Seal | null {
  const m = /^v1\.([0-9a-f]{8})\.(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]{86})$/.exec(seal);
  if (!m) return null;
  const leafIndex = Number(m[2]);
  if (!Number.isSafeInteger(leafIndex)) return null;
  return { keyId: Buffer.from(m[1]!, 'hex'), leafIndex, signature: Buffer.from(m[3]!, 'base64url') };
}

/** True when `seal` is the log key's signature over this leaf hash at this index. */
export function verifySeal(seal: string, key: VerifierKey, leafIndex: number, leafHashValue: Uint8Array): boolean {
  const s = parseSeal(seal);
  if (!s || !s.keyId.equals(key.keyId) || s.leafIndex !== leafIndex) return false;
  return ed25519Verify(key.publicKey, Buffer.from(sealMessage(key.name, leafIndex, leafHashValue), 'utf8'), s.signature);
}
