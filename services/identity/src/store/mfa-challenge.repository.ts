import type { Redis } from 'ioredis';

/**
 * Two-factor login challenges in Redis, one hash per challenge (`user_id`, `attempts`), expiring by
 * Redis TTL. Keyed by an id the caller derives from the challenge (its hash): the challenge itself
 * is never stored.
 */
export function createMfaChallengeRepository(redis: Redis, keyPrefix: string) {
  const key = (id: string) => `${keyPrefix}identity:mfa:${id}`;
  return {
    async create(id: string, userId: string, ttlSeconds: number) {
      await redis.multi().hset(key(id), { user_id: userId, attempts: '0' }).expire(key(id), ttlSeconds).exec();
    },
    /** The user the challenge was issued to, or null when it is unknown or expired. */
    async userId(id: string): Promise<string | null> {
      const state = await redis.hgetall(key(id));
      return state.user_id || null;
    },
    /** Counts a wrong code: the wrong codes so far. */
    countWrongCode: (id: string): Promise<number> => redis.hincrby(key(id), 'attempts', 1),
    /** Removes the challenge; true only for the caller that removed it (single use). */
    async remove(id: string): Promise<boolean> {
      return (await redis.del(key(id))) === 1;
    },
  };
}
export type MfaChallengeRepository = ReturnType<typeof createMfaChallengeRepository>;
