import { createHash, randomBytes } from 'node:crypto';

/** verification_mode of a signer who also completed the WebAuthn step (see docs/decisions.md). */
export const WEBAUTHN_SUFFIX = '+webauthn';

/**
 * The WebAuthn challenge commits to the document and the live ceremony nonce:
 * SHA-256("signet-webauthn-v1" | document SHA-256 | ceremony nonce | salt). The authenticator signs
 * clientDataJSON, which carries this challenge, so the assertion is a signature over this document
 * in this ceremony. The salt keeps each challenge fresh and is recorded so the commitment can be recomputed.
 */
export function webauthnChallenge(documentSha256: string, nonce: string, salt = randomBytes(16).toString('hex')) {
  const bytes = createHash('sha256').update(['signet-webauthn-v1', documentSha256, nonce, salt].join('|')).digest();
  return { bytes: new Uint8Array(bytes), base64url: bytes.toString('base64url'), salt };
}

export function withWebauthn(mode: string, done: boolean): string {
  return done ? `${mode}${WEBAUTHN_SUFFIX}` : mode;
}
