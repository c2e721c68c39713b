import type { Redis } from 'ioredis';

/**
 * A pending WebAuthn challenge: registration (for a signed-in user), a second-factor sign-in (the
 * user of a password challenge, kept as its hash) or a passkey-only sign-in (no user yet).
 */
export type PendingWebauthn =
  | { kind: 'registration'; user_id: string }
  | { kind: 'login'; user_id: string | null; mfa_challenge_id: string | null; user_verification: boolean };

export const WEBAUTHN_CHALLENGE_TTL_S = 300;

/**
 * Pending challenges in Redis under the hash of the challenge the browser signs, expiring by TTL and
 * taken with GETDEL: an answer finds its challenge from its own clientDataJSON, once.
 */
export function createWebauthnChallengeRepository(redis: Redis, keyPrefix: string) {
  const key = (id: string) => `${keyPrefix}identity:webauthn:${id}`;
  return {
    async put(id: string, pending: PendingWebauthn): Promise<void> {
      await redis.set(key(id), JSON.stringify(pending), 'EX', WEBAUTHN_CHALLENGE_TTL_S);
    },
    async take(id: string): Promise<PendingWebauthn | null> {
      const raw = await redis.getdel(key(id));
      return raw ? (JSON.parse(raw) as PendingWebauthn) : null;
    },
  };
}
export type WebauthnChallengeRepository = ReturnType<typeof createWebauthnChallengeRepository>;
