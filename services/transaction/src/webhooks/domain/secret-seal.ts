import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Endpoint signing secrets at rest (issue 18): AES-256-GCM with WEBHOOK_ENDPOINT_KEY, a random 96-bit
 * nonce per seal and the endpoint id as additional data (a sealed secret copied onto another endpoint
 * does not open). Stored as `v1.<nonce>.<ciphertext>.<tag>` (base64url); a stored `whsec_` value is a
 * plaintext one from before (sealed by the store at start).
 */
export function createSecretSeal(hexKey: string) {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('WEBHOOK_ENDPOINT_KEY must be 32 bytes (64 hex characters)');
  return {
    seal(secret: string, endpointId: string): string {
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, nonce);
      c.setAAD(Buffer.from(endpointId));
      const ct = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
      return ['v1', nonce.toString('base64url'), ct.toString('base64url'), c.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed: string, endpointId: string): string {
      if (isPlaintext(sealed)) return sealed;
      const [v, nonce, ct, tag] = sealed.split('.');
      if (v !== 'v1' || !nonce || !ct || !tag) throw new Error('unknown sealed secret format');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      d.setAAD(Buffer.from(endpointId));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
  };
}
export type SecretSeal = ReturnType<typeof createSecretSeal>;

/** A secret stored before they were sealed. */
export const isPlaintext = (stored: string): boolean => stored.startsWith('whsec_');

/** The longest overlap a roll may ask for, and the one it gets when it names none. */
export const MAX_OVERLAP_SECONDS = 7 * 86_400;
export const DEFAULT_OVERLAP_SECONDS = 86_400;

/** The secrets a delivery at `at` is signed with: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  ep: { _id: string; secret: string; previous_secret?: string | null; previous_secret_until?: Date | null },
  at: Date,
  seal: SecretSeal,
): string[] {
  const current = seal.open(ep.secret, ep._id);
  const overlap = ep.previous_secret && ep.previous_secret_until && new Date(ep.previous_secret_until) > at;
  return overlap ? [current, seal.open(ep.previous_secret!, ep._id)] : [current];
}
