/**
 * The chunks of a live recording while it streams in, in Redis (shared by every ceremony replica,
 * gone with the challenge's expiry): the bytes in order, for each chunk its arrival time, media
 * time and the segments the page reported shown, the demuxer's state after the last chunk, and
 * the chunks refused. A chunk is appended only if it is the next one, so a retried chunk is
 * recognised and a gap refused; one script does the check and the append.
 */
import type { Redis } from 'ioredis';
import type { LiveChunkMeta, LiveProblem } from '../domain/live.js';
import type { DemuxState } from '../media/chunk-demux.js';

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
redis.call('SET', KEYS[4], ARGV[7])
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return {1, n + 1}
`;

export type AppendResult = 'appended' | 'duplicate' | 'gap' | 'too_large' | 'too_many';

export function createLiveBuffer(redis: Redis) {
  const keys = (session: string, nonce: string) => {
    const base = `ceremony:live:${session}:${nonce}`;
    return [`${base}:chunks`, `${base}:meta`, `${base}:bytes`, `${base}:demux`, `${base}:refused`] as const;
  };
  return {
    async append(
      session: string,
      nonce: string,
      meta: LiveChunkMeta,
      data: Buffer,
      demux: DemuxState,
      limits: { maxBytes: number; maxChunks: number; ttlMs: number },
    ): Promise<AppendResult> {
      const [code] = (await redis.eval(
        APPEND,
        4,
        ...keys(session, nonce).slice(0, 4),
        String(meta.seq),
        data,
        JSON.stringify(meta),
        String(limits.maxBytes),
        String(limits.maxChunks),
        String(Math.max(1, Math.round(limits.ttlMs))),
        JSON.stringify(demux),
      )) as [number, number];
      return code === 1 ? 'appended' : code === 0 ? 'duplicate' : code === -1 ? 'gap' : code === -2 ? 'too_large' : 'too_many';
    },
    /** The chunks stored so far (their metas) and the demuxer's state after the last one. */
    async state(session: string, nonce: string): Promise<{ metas: LiveChunkMeta[]; demux: DemuxState | null }> {
      const [, metas, , demux] = keys(session, nonce);
      const [m, d] = await Promise.all([redis.lrange(metas, 0, -1), redis.get(demux)]);
      return { metas: m.map((x) => JSON.parse(x) as LiveChunkMeta), demux: d ? (JSON.parse(d) as DemuxState) : null };
    },
    /** A chunk refused: kept until the finish, where it ends the recording's claim to "live". */
    async refuse(session: string, nonce: string, problem: LiveProblem, ttlMs: number): Promise<void> {
      const refused = keys(session, nonce)[4];
      await redis
        .multi()
        .rpush(refused, JSON.stringify(problem))
        .pexpire(refused, Math.max(1, Math.round(ttlMs)))
        .exec();
    },
    /** The recording and its chunks' metas; the refusals ride on the first meta. */
    async read(session: string, nonce: string): Promise<{ video: Buffer; metas: LiveChunkMeta[] }> {
      const [chunks, metas, , , refused] = keys(session, nonce);
      const [parts, m, r] = await Promise.all([
        redis.lrangeBuffer(chunks, 0, -1),
        redis.lrange(metas, 0, -1),
        redis.lrange(refused, 0, -1),
      ]);
      const out = m.map((x) => JSON.parse(x) as LiveChunkMeta);
      if (out[0] && r.length) out[0].refused = r.map((x) => JSON.parse(x) as LiveProblem);
      return { video: Buffer.concat(parts), metas: out };
    },
    async drop(session: string, nonce: string): Promise<void> {
      await redis.del(...keys(session, nonce));
    },
  };
}
export type LiveBuffer = ReturnType<typeof createLiveBuffer>;
