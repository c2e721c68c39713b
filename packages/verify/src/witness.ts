/**
 * Witness cosignatures (https://c2sp.org/tlog-cosignature, cosignature/v1) on C2SP checkpoints, and
 * the witness quorum a verifier requires. A witness signs
 *   "cosignature/v1\ntime <unix seconds>\n" ‖ checkpoint text
 * with Ed25519 after checking that the checkpoint is consistent with every earlier one it saw of the
 * same log (https://c2sp.org/tlog-witness). Its signature line in the note is
 * "— <witness name> base64(key id ‖ 8-byte big-endian time ‖ signature)", key id = first 4 bytes of
 * SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key); its verifier key "<name>+<key id>+base64(0x04 ‖ public key)".
 */
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { parseCheckpoint, parseNote, type VerifierKey } from './note.js';

/** Signature type identifier of a timestamped Ed25519 cosignature in the signed-note key id. */
export const COSIGNATURE_V1_ALG = 0x04;
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export type WitnessKey = VerifierKey;

export function witnessKeyId(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from(name, 'utf8'))
    .update(Buffer.from([0x0a, COSIGNATURE_V1_ALG]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

export function formatWitnessKey(name: string, publicKey: Uint8Array): string {
  const raw = Buffer.concat([Buffer.from([COSIGNATURE_V1_ALG]), publicKey]).toString('base64');
  return `${name}+${witnessKeyId(name, publicKey).toString('hex')}+${raw}`;
}

/** Parses a witness (cosignature/v1) verifier key; throws with the reason when it is not one. */
export function parseWitnessKey(vkey: string): WitnessKey {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey.trim());
  if (!m) throw new Error('witness key must be <name>+<8 hex key id>+<base64 key>');
  const [, name, idHex, b64] = m as unknown as [string, string, string, string];
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw[0] !== COSIGNATURE_V1_ALG)
    throw new Error('witness key is not a cosignature/v1 (0x04) Ed25519 key');
  const publicKey = raw.subarray(1);
  const keyId = witnessKeyId(name, publicKey);
  if (keyId.toString('hex') !== idHex) throw new Error('witness key id does not match its name and key');
  return { name, keyId, publicKey };
}

/** The message a witness signs for this checkpoint text at this time. */
export function cosignatureMessage(checkpointText: string, time: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${time}\n${checkpointText}`, 'utf8');
}

function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    return verifySignature(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * The time of a valid cosignature by `key` among the signature lines of `note`, or null. `lines` may
 * also be only signature lines ("— name base64\n"), as a witness answers add-checkpoint.
 */
export function verifyCosignature(note: string, key: WitnessKey, lines?: string): number | null {
  let text: string;
  let sigs;
  try {
    const parsed = parseNote(note);
    text = parsed.text;
    sigs = lines === undefined ? parsed.signatures : parseNote(`${text}\n${lines}`).signatures;
    parseCheckpoint(text); // a witness only ever cosigns checkpoints
  } catch {
    return null;
  }
  for (const s of sigs) {
    if (s.name !== key.name || !s.keyId.equals(key.keyId) || s.signature.length !== 8 + 64) continue;
    const time = s.signature.readBigUInt64BE(0);
    if (time > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    if (ed25519Verify(key.publicKey, cosignatureMessage(text, Number(time)), s.signature.subarray(8))) return Number(time);
  }
  return null;
}

export type WitnessPolicy = { witnesses: WitnessKey[]; quorum: number };

export type QuorumResult = { ok: boolean; cosigned: string[]; quorum: number; of: number };

/** Which of the policy's witnesses validly cosigned the checkpoint note, and whether they make the quorum. */
export function checkWitnessQuorum(note: string, policy: WitnessPolicy): QuorumResult {
  const cosigned = policy.witnesses.filter((w) => verifyCosignature(note, w) !== null).map((w) => w.name);
  const unique = [...new Set(cosigned)];
  return { ok: unique.length >= policy.quorum, cosigned: unique, quorum: policy.quorum, of: policy.witnesses.length };
}

/** A witness policy from keys and an optional quorum (default: every listed witness). Throws on a bad quorum. */
export function witnessPolicy(keys: string[], quorum?: number): WitnessPolicy {
  const witnesses = keys.map(parseWitnessKey);
  const q = quorum ?? witnesses.length;
  if (!Number.isInteger(q) || q < 0 || q > witnesses.length)
    throw new Error(`witness quorum must be an integer from 0 to the ${witnesses.length} witness key(s) given`);
  return { witnesses, quorum: q };
}
