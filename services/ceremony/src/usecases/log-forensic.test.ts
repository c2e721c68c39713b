import { describe, expect, it } from 'vitest';
import { MAX_FORENSIC_BATCHES } from '../domain/forensic.js';
import type { ForensicBatchRecord } from '../store/forensic.repository.js';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { logForensic } from './log-forensic.js';

function setup(batchesUsed = 0) {
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord({ forensic_batches: batchesUsed }));
  const stored: ForensicBatchRecord[] = [];
  const deps = {
    signingTokens: fakeSigningTokens(signingContext()),
    sessions,
    forensic: { append: async (d: ForensicBatchRecord) => void stored.push(d) },
    metrics: m.metrics,
    now: fakeClock().now,
  };
  return { deps, sessions, stored, ...m };
}
const batch = (events: unknown) => ({ token: 'tok', batchJson: JSON.stringify({ events }), ip: '203.0.113.9', userAgent: 'ua' });
const ok = [{ type: 'timing', t: 12, data: { step: 'consent' } }];

describe('logForensic', () => {
  it('stores a valid batch under the next number with the server time', async () => {
    const t = setup(4);
    const r = await logForensic(t.deps, batch(ok));
    expect(r).toMatchObject({ batch: 5, batchesLeft: MAX_FORENSIC_BATCHES - 5 });
    expect(t.stored).toEqual([
      { session_id: '42:0', batch: 5, received_at: r.receivedAt, ip: '203.0.113.9', user_agent: 'ua', events: ok },
    ]);
  });

  it('refuses an unknown event type, bad JSON and an oversized batch without taking a batch number', async () => {
    const t = setup();
    await expect(logForensic(t.deps, batch([{ type: 'keystrokes', t: 1 }]))).rejects.toMatchObject({ kind: 'invalid_argument' });
    await expect(logForensic(t.deps, { ...batch(ok), batchJson: '{' })).rejects.toMatchObject({ kind: 'invalid_argument' });
    const big = [{ type: 'timing', t: 1, data: { s: 'x'.repeat(500) } }];
    await expect(logForensic(t.deps, batch(Array(140).fill(big[0])))).rejects.toMatchObject({ reason: 'PAYLOAD_TOO_LARGE' });
    expect(t.sessions.current.forensic_batches).toBe(0);
    expect(t.stored).toEqual([]);
  });

  it('refuses a batch once the session has used all of them', async () => {
    const t = setup(MAX_FORENSIC_BATCHES);
    await expect(logForensic(t.deps, batch(ok))).rejects.toMatchObject({ reason: 'FORENSIC_LIMIT' });
    expect(t.counted('forensic', { result: 'limit' })).toBe(1);
  });
});
