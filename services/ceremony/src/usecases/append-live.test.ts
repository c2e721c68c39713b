import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@signet/kit';
import { chunksByTime, voidElement } from '../../../../test/fixtures/webm-clusters.js';
import { newChallenge } from '../domain/challenge.js';
import { assessLive, type LiveChunkMeta, type LiveProblem } from '../domain/live.js';
import { segmentCount } from '../domain/timeline.js';
import type { DemuxState } from '../media/chunk-demux.js';
import type { CeremonyMetrics } from '../metrics.js';
import { fakeClock, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { appendLive } from './append-live.js';

let dir: string;
let webm: Buffer;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signet-append-live-'));
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
  ff([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=20', '-c:v', 'libvpx', '-b:v', '50k'],
    ...['-deadline', 'realtime', '-cluster_time_limit', '100', join(dir, 'v.webm')],
  ]);
  webm = readFileSync(join(dir, 'v.webm'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The live buffer in memory, with the Redis script's rules (next chunk only, duplicates answered, refusals kept). */
function memoryLive() {
  const metas: LiveChunkMeta[] = [];
  const refused: LiveProblem[] = [];
  let demux: DemuxState | null = null;
  return {
    metas,
    refused,
    state: async () => ({ metas: [...metas], demux }),
    refuse: async (_s: string, _n: string, p: LiveProblem) => void refused.push(p),
    append: async (_s: string, _n: string, meta: LiveChunkMeta, _d: Buffer, state: DemuxState) => {
      if (meta.seq < metas.length) return 'duplicate' as const;
      if (meta.seq > metas.length) return 'gap' as const;
      metas.push(meta);
      demux = state;
      return 'appended' as const;
    },
  };
}

function setup() {
  const clock = fakeClock(Date.now());
  const started = new Date(clock.now());
  const challenge = {
    ...newChallenge({ documentSha256: 'a'.repeat(64), transactionId: 42, signerIndex: 0, signerEmail: 'a@b.c' }, 'live'),
    live_started_at: started,
  };
  const counts = new Map<string, number>();
  const counter = (name: string) => ({
    inc: (labels: Record<string, string> = {}) => {
      const key = `${name}:${Object.values(labels).join(',')}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
  });
  const live = memoryLive();
  const deps = {
    signingTokens: fakeSigningTokens(signingContext()),
    sessions: fakeSessions(sessionRecord({ challenge })),
    metrics: { live: counter('live'), liveProblems: counter('problems') } as unknown as CeremonyMetrics,
    now: clock.now,
    live,
  };
  const t = challenge.timeline!;
  const send = (seq: number, data: Buffer, shown: { segment: number; shownMs: number }[] = []) =>
    appendLive(deps, { token: 'tok', nonce: challenge.nonce, seq, data, shown });
  return { clock, send, live, counts, t, n: segmentCount(t), parts: chunksByTime(webm, t.segment_ms, segmentCount(t)) };
}

const refusedWith = async (p: Promise<unknown>, re: RegExp) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).message).toMatch(re);
};

describe('appendLive', () => {
  it('a header alone, then padding, are refused: nothing stored, nothing revealed, the refusal kept and counted', async () => {
    const s = setup();
    const header = s.parts[0]!.subarray(0, s.parts[0]!.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75])));
    s.clock.advance(1100);
    await refusedWith(s.send(0, header), /chunk 0 carries no video frame.*no longer count as live/);
    await refusedWith(s.send(0, Buffer.from('not a video, just text')), /neither WebM nor MP4/);
    expect(s.live.metas).toHaveLength(0);
    const ack = await s.send(0, s.parts[0]!);
    expect(ack.reveal?.segment).toBe(1);
    s.clock.advance(1000);
    await refusedWith(s.send(1, voidElement(4000)), /chunk 1 carries no video frame/);
    expect(s.live.refused.map((r) => r.reason)).toEqual(['no_media', 'unreadable', 'no_media']);
    expect(s.counts.get('problems:no_media')).toBe(2);
    expect(s.counts.get('problems:unreadable')).toBe(1);
  });

  it("an honest stream is stored with each chunk's media time; a retry is answered again; the whole is live", async () => {
    const s = setup();
    for (let k = 0; k < s.n; k++) {
      s.clock.advance(k === 0 ? 1100 : 1000);
      const shown = k === 0 ? [] : [{ segment: k, shownMs: k * s.t.segment_ms + 150 }];
      const ack = await s.send(k, s.parts[k]!, shown);
      expect(ack.done).toBe(k === s.n - 1);
      if (k === 3) expect(await s.send(3, s.parts[3]!, shown)).toEqual(ack);
    }
    expect(s.live.metas.map((m) => m.media_end_ms! >= (m.seq + 1) * s.t.segment_ms - 600)).toEqual(s.live.metas.map(() => true));
    expect(s.counts.get('live:duplicate')).toBe(1);
    expect([...s.counts.keys()].filter((k) => k.startsWith('problems'))).toEqual([]);
    expect(assessLive(s.t, s.live.metas, s.t.total_ms / 1000).assurance).toBe('live');
  });

  it('media ahead of the clock is stored but counted, and the recording is only recorded', async () => {
    const s = setup();
    for (let k = 0; k < s.n; k++) {
      s.clock.advance(500);
      await s.send(k, s.parts[k]!, k === 0 ? [] : [{ segment: k, shownMs: k * 500 + 100 }]);
    }
    expect(s.counts.get('problems:ahead')).toBeGreaterThan(5);
    expect(assessLive(s.t, s.live.metas, s.t.total_ms / 1000).assurance).toBe('recorded');
  });
});
