import type { Redis } from 'ioredis';

/** The WebAuthn challenge handed out with the options, until the browser's answer takes it (once). */
export type PendingWebauthn = { kind: 'registration' | 'authentication'; challenge: string; salt: string; nonce: string };

export const WEBAUTHN_CHALLENGE_TTL_S = 180;

/** Pending WebAuthn challenges in Redis, one per session, shared by every replica. */
export function createWebauthnChallengeRepository(redis: Redis) {
  const key = (session: string) => `ceremony:webauthn:${session}`;
  return {
    async put(session: string, pending: PendingWebauthn): Promise<void> {
      await redis.set(key(session), JSON.stringify(pending), 'EX', WEBAUTHN_CHALLENGE_TTL_S);
    },
    /** The pending challenge, removed in the same step so it answers one response only; null when none. */
    async take(session: string): Promise<PendingWebauthn | null> {
      const raw = await redis.getdel(key(session));
      return raw ? (JSON.parse(raw) as PendingWebauthn) : null;
    },
  };
}
export type WebauthnChallengeRepository = ReturnType<typeof createWebauthnChallengeRepository>;
