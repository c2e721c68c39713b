import { randomInt } from 'node:crypto';
import argon2 from 'argon2';

/** Ten codes per generation. */
export const RECOVERY_CODE_COUNT = 10;
// Crockford base32: no I, L, O, U, so a code read aloud or copied by hand is not mistyped.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A recovery code: `XXXX-XXXX-XXXX`. The first group is its id (stored plainly, so a sign-in checks
 * one argon2 hash instead of ten); the other eight characters (40 bits) are the secret, stored only
 * as its argon2id hash. Guessing is bounded by the sign-in rate limit and the challenge's attempts.
 */
export type RecoveryCode = { text: string; id: string; secret: string };

function group(): string {
  let s = '';
  for (let i = 0; i < 4; i++) s += ALPHABET[randomInt(0, ALPHABET.length)];
  return s;
}

/** A generation of codes with distinct ids. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): RecoveryCode[] {
  const out = new Map<string, RecoveryCode>();
  while (out.size < count) {
    const [id, a, b] = [group(), group(), group()];
    if (!out.has(id)) out.set(id, { text: `${id}-${a}-${b}`, id, secret: `${a}${b}` });
  }
  return [...out.values()];
}

/** The id and secret of what the user typed (case, spaces and dashes ignored), or null when it cannot be a code. */
export function parseRecoveryCode(input: string): { id: string; secret: string } | null {
  const s = input.replace(/[\s-]/g, '').toUpperCase();
  if (s.length !== 12 || [...s].some((c) => !ALPHABET.includes(c))) return null;
  return { id: s.slice(0, 4), secret: s.slice(4) };
}

/**
 * argon2id of a code's secret with OWASP's minimum parameters (19 MiB, t=2, p=1) rather than the
 * password defaults (64 MiB, t=3, p=4): a generation hashes ten at once, and the secret is random
 * (40 bits), not a chosen password. Verified like a password (the parameters are in the hash).
 */
export const hashRecoverySecret = (secret: string) =>
  argon2.hash(secret, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
