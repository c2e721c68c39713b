import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/** AES-256-GCM for TOTP secrets at rest: `v1.<iv>.<ciphertext>.<tag>` (base64url); the user id is the AAD. */
export function createSecretBox(hexKey: string) {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('TOTP_ENCRYPTION_KEY must be 32 bytes');
  return {
    seal(plaintext: string, aad: string): string {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      c.setAAD(Buffer.from(aad));
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), ct.toString('base64url'), c.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed: string, aad: string): string {
      const [v, iv, ct, tag] = sealed.split('.');
      if (v !== 'v1' || !iv || !ct || !tag) throw new Error('unknown sealed format');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAAD(Buffer.from(aad));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A 6-digit one-time code. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
/** Codes are stored hashed with their purpose and email, so a database read does not reveal a usable code. */
export const codeHash = (purpose: string, email: string, code: string) => sha256(`${purpose}:${email}:${code}`);

export const newOpaqueToken = () => randomBytes(32).toString('base64url');

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function base62(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += BASE62[randomInt(0, 62)];
  return s;
}

export const API_KEY_PREFIX_LENGTH = 12;
/** A key is live (its data is real and billed) or test (free, marked, never mixed with live data). */
export type ApiKeyMode = 'live' | 'test';
export const API_KEY_MODES: readonly ApiKeyMode[] = ['live', 'test'];
const TEST_MARK = 'sgn_test_';
/**
 * An API key: `sgn_` + 8 random characters form the 12-character visible prefix, then 40 random
 * base62 characters (~238 bits) of secret. A test key says so: `sgn_test_` + 8 random characters
 * (17-character prefix), then the same 40. base62 has no `_`, so no live key starts with `sgn_test_`.
 * Stored as prefix + SHA-256 of the whole key: the secret is high-entropy, so a slow hash adds
 * nothing but per-request latency.
 */
export function newApiKey(mode: ApiKeyMode = 'live'): { key: string; prefix: string; hash: string } {
  const prefix = `${mode === 'test' ? TEST_MARK : 'sgn_'}${base62(8)}`;
  const key = `${prefix}${base62(40)}`;
  return { key, prefix, hash: sha256(key) };
}
export const API_KEY_PATTERN = /^sgn_(test_)?[A-Za-z0-9]{48}$/;
/** The mode a key's text claims (the stored record decides; the two agree for every key made here). */
export const apiKeyModeOf = (key: string): ApiKeyMode => (key.startsWith(TEST_MARK) ? 'test' : 'live');
/** The visible prefix a key is looked up by. */
export const apiKeyPrefixOf = (key: string) => key.slice(0, API_KEY_PREFIX_LENGTH + (apiKeyModeOf(key) === 'test' ? 5 : 0));

/** argon2id with the library defaults (64 MiB, t=3, p=4). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

let dummy: Promise<string> | undefined;
/**
 * Verifies a password; with no stored hash it verifies against a dummy one, so an unknown email
 * costs the same time as a wrong password.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword(newOpaqueToken());
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  return argon2.verify(stored, password).catch(() => false);
}

/** How passwords are hashed and checked; use cases take it as a dependency (argon2idPasswords in the service). */
export type PasswordHasher = {
  hash(password: string): Promise<string>;
  verify(stored: string | null | undefined, password: string): Promise<boolean>;
};
export const argon2idPasswords: PasswordHasher = { hash: hashPassword, verify: verifyPassword };
