/**
 * The log's keys across rotations. The log signs checkpoints and seals with its current key; a
 * rotated-out key stays listed (retired) with the period it signed in, so what it signed keeps
 * verifying. As C2SP signed notes allow, a verifier picks the key of each signature by its name and
 * key id (the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)), never by position; a note may
 * carry several signatures, and those by keys the verifier does not know are skipped.
 *
 * A key is trusted for a certificate only while its period allows it: a key retired (not_after)
 * before the certificate was verified cannot have sealed it or signed a checkpoint covering it, and
 * a checkpoint that a witness cosigned before the key's not_before was signed before the key was in
 * use. Both refuse the bundle.
 */
import { parseNote, parseSeal, parseVerifierKey, verifyCheckpoint, type Checkpoint, type VerifierKey } from './note.js';

/** A log key with the period it signed in (absent bound: open). */
export type LogKey = VerifierKey & { notBefore?: Date; notAfter?: Date; current?: boolean };

/** One key, or every key of the log (GET /api/ledger/public-key `keys`). */
export type LogKeys = VerifierKey | readonly LogKey[];

export const keyList = (keys: LogKeys): readonly LogKey[] => (Array.isArray(keys) ? keys : [keys as VerifierKey]);

function date(v: unknown, what: string): Date | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const d = typeof v === 'string' ? new Date(v) : new Date(NaN);
  if (Number.isNaN(d.getTime())) throw new Error(`${what} must be an RFC 3339 time`);
  return d;
}

/**
 * The keys of the JSON GET /api/ledger/public-key serves: every entry of `keys` with its period, or
 * (a server before key rotation) the single `verifier_key`.
 */
export function parseServedKeys(served: unknown): LogKey[] {
  if (typeof served !== 'object' || served === null) throw new Error('the public-key file is not a JSON object');
  const s = served as { verifier_key?: unknown; keys?: unknown };
  if (Array.isArray(s.keys) && s.keys.length > 0) {
    return s.keys.map((k: unknown, i) => {
      const e = (k ?? {}) as Record<string, unknown>;
      if (typeof e.verifier_key !== 'string') throw new Error(`keys[${i}] has no verifier_key`);
      const key: LogKey = {
        ...parseVerifierKey(e.verifier_key),
        notBefore: date(e.not_before, `keys[${i}].not_before`),
        notAfter: date(e.not_after, `keys[${i}].not_after`),
        current: e.current === true,
      };
      if (key.notBefore && key.notAfter && key.notBefore > key.notAfter)
        throw new Error(`keys[${i}] has not_before after not_after`);
      return key;
    });
  }
  if (typeof s.verifier_key !== 'string') throw new Error('the public-key file has no verifier_key');
  return [parseVerifierKey(s.verifier_key)];
}

export const describeKey = (k: LogKey) => `${k.keyId.toString('hex')}${k.current === false ? ' (retired)' : ''}`;

/** The checkpoint and the key whose signature on it verifies (picked by name and key id), or null. */
export function verifyCheckpointWith(note: string, keys: LogKeys): { cp: Checkpoint; key: LogKey } | null {
  let sigs;
  try {
    sigs = parseNote(note).signatures;
  } catch {
    return null;
  }
  for (const s of sigs) {
    const key = keyList(keys).find((k) => k.name === s.name && k.keyId.equals(s.keyId));
    const cp = key ? verifyCheckpoint(note, key) : null;
    if (cp && key) return { cp, key };
  }
  return null;
}

/** The key a ledger seal names (by key id), if the verifier knows it. */
export function sealKey(seal: string, keys: LogKeys): LogKey | undefined {
  const s = parseSeal(seal);
  return s ? keyList(keys).find((k) => k.keyId.equals(s.keyId)) : undefined;
}

/**
 * Why `key` cannot have signed for a certificate verified at `verifiedAt` (null when it can): it was
 * retired before. `verifiedAt` is the certificate's `verified_at`.
 */
export function outsidePeriod(key: LogKey, verifiedAt: unknown): string | null {
  if (!key.notAfter) return null;
  const at = typeof verifiedAt === 'string' ? new Date(verifiedAt) : new Date(NaN);
  if (Number.isNaN(at.getTime()))
    return `key ${describeKey(key)} has a period and the certificate has no verified_at to place it in`;
  if (at > key.notAfter)
    return `key ${describeKey(key)} was retired at ${key.notAfter.toISOString()}, before the certificate was verified (${at.toISOString()})`;
  return null;
}

/** Why a checkpoint cosigned at `times` (unix seconds, by trusted witnesses) cannot be `key`'s (null when it can). */
export function cosignedBeforeKey(key: LogKey, times: number[]): string | null {
  if (!key.notBefore || times.length === 0) return null;
  const first = Math.min(...times);
  if (first * 1000 < key.notBefore.getTime())
    return `a witness cosigned the checkpoint at ${new Date(first * 1000).toISOString()}, before key ${describeKey(key)} came into use (${key.notBefore.toISOString()})`;
  return null;
}
