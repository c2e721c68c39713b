/**
 * The chunks of a live recording while it streams in, in Redis (shared by every ceremony replica,
 * gone with the challenge's expiry): the bytes in order, and for each chunk its arrival time and
 * the segments the page reported shown. A chunk is appended only if it is the next one, so a
 * retried chunk is recognised and a gap refused; one script does the check and the append.
 */
import type { Redis } from 'ioredis';
import type { LiveChunkMeta } from '../domain/live.js';

const APPEND = `
local n = redis.call('LLEN', KEYS[1])
local seq = tonumber(ARGV[1])
if seq < n then return {0, n} end
if seq > n then return {-1, n} end
if n >= tonumber(ARGV[5]) then return {-3, n} end
local total = redis.call('INCRBY', KEYS[3], string.len(ARGV[2]))
if total > tonumber(ARGV[4]) then
  redis.call('DECRBY', KEYS[3], string.len(ARGV[2]))
  return {-2, n}
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return {1, n + 1}
`;

export type AppendResult = 'appended' | 'duplicate' | 'gap' | 'too_large' | 'too_many';

export function createLiveBuffer(redis: Redis) {
  const keys = (session: string, nonce: string) => {
    const base = `ceremony:live:${session}:${nonce}`;
    return [`${base}:chunks`, `${base}:meta`, `${base}:bytes`] as const;
  };
  return {
    async append(
      session: string,
      nonce: string,
      meta: LiveChunkMeta,
      data: Buffer,
      limits: { maxBytes: number; maxChunks: number; ttlMs: number },
    ): Promise<AppendResult> {
      const [code] = (await redis.eval(
        APPEND,
        3,
        ...keys(session, nonce),
        String(meta.seq),
        data,
        JSON.stringify(meta),
        String(limits.maxBytes),
        String(limits.maxChunks),
        String(Math.max(1, Math.round(limits.ttlMs))),
      )) as [number, number];
      return code === 1 ? 'appended' : code === 0 ? 'duplicate' : code === -1 ? 'gap' : code === -2 ? 'too_large' : 'too_many';
    },
    async read(session: string, nonce: string): Promise<{ video: Buffer; metas: LiveChunkMeta[] }> {
      const [chunks, metas] = keys(session, nonce);
      const [parts, m] = await Promise.all([redis.lrangeBuffer(chunks, 0, -1), redis.lrange(metas, 0, -1)]);
      return { video: Buffer.concat(parts), metas: m.map((x) => JSON.parse(x) as LiveChunkMeta) };
    },
    async drop(session: string, nonce: string): Promise<void> {
      await redis.del(...keys(session, nonce));
    },
  };
}
export type LiveBuffer = ReturnType<typeof createLiveBuffer>;
