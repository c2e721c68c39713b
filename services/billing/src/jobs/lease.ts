import type { Redis } from 'ioredis';

/**
 * A lease in Redis: `SET key holder PX ttl NX` takes it, a compare-and-extend keeps it, a
 * compare-and-delete gives it up. Only the holder runs the guarded work, so with several replicas
 * one at a time does.
 */
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function createLease(redis: Redis, key: string, holder: string, ttlMs: number) {
  return {
    /** True when this holder has the lease now (taken fresh or extended). */
    async acquire(): Promise<boolean> {
      if ((await redis.set(key, holder, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return (await redis.eval(EXTEND, 1, key, holder, String(ttlMs))) === 1;
    },
    async release(): Promise<void> {
      await redis.eval(RELEASE, 1, key, holder);
    },
  };
}
