import { conflict, quotaExhausted, type Logger } from '@signet/kit';
import { describe, expect, it } from 'vitest';
import { emptyCounts, rowIdempotencyKey } from '../domain/bulk.js';
import type { BulkJobRecord, BulkRowRecord } from '../store/bulk.repository.js';
import type { RowCreation } from './bulk-template.js';
import { QUOTA_REASON, runBulkJob, type BulkRunDeps } from './run-bulk-job.js';

/** The runner's store as plain memory (the store itself is exercised by the e2e tests). */
function fakeStore(n: number) {
  const job: BulkJobRecord = {
    _id: 'bj_1',
    owner_id: 'u1',
    test: false,
    org_name: 'Acme',
    sender_email: '',
    template_id: 'tpl_1',
    idempotency_key: null,
    fingerprint: 'f',
    source: 'csv',
    rows: n,
    photos: 0,
    state: 'running',
    counts: null,
    created_at: new Date(),
    completed_at: null,
    lease_holder: null,
    lease_until: null,
  };
  const rows: BulkRowRecord[] = Array.from({ length: n }, (_, index) => ({
    _id: `bj_1:${index}`,
    job_id: 'bj_1',
    index,
    signers: [{ role: 'client', name: `S${index}`, email: `s${index}@example.com`, photo: -1 }],
    values: {},
    status: 'pending',
    reason: '',
    transaction_id: 0,
    reference: '',
    attempt: 0,
    updated_at: new Date(),
  }));
  const outbox: unknown[] = [];
  let leaseLost = false;
  const store = {
    claim: async () => (job.state === 'running' ? { ...job } : null),
    renew: async () => !leaseLost,
    release: async () => undefined,
    pendingRows: async (_id: string, _size: number, limit: number) => rows.filter((r) => r.status === 'pending').slice(0, limit),
    counts: async () => {
      const c = emptyCounts(n);
      for (const r of rows) c[r.status]++;
      return c;
    },
    notSendRest: async (_id: string, reason: string) => {
      const rest = rows.filter((r) => r.status === 'pending');
      for (const r of rest) Object.assign(r, { status: 'not_sent', reason });
      return rest.length;
    },
    complete: async (_id: string, _h: string, counts: unknown, _now: Date, e: unknown) => {
      Object.assign(job, { state: 'completed', counts });
      outbox.push(e);
      return true;
    },
    forgetInputs: async () => undefined,
    photo: async () => null,
    settleRow: async (_id: string, index: number, set: Partial<BulkRowRecord>) => {
      const r = rows[index]!;
      if (r.status !== 'pending') return false;
      Object.assign(r, set);
      return true;
    },
    nextAttempt: async (_id: string, index: number) => void rows[index]!.attempt++,
  };
  return { job, rows, outbox, store, loseLease: () => (leaseLost = true) };
}

const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;

function deps(
  s: ReturnType<typeof fakeStore>,
  createRow: (c: RowCreation) => Promise<{ id: number; reference: string }>,
  more: Partial<BulkRunDeps> = {},
) {
  const calls = { released: [] as string[] };
  const d: BulkRunDeps = {
    bulk: s.store,
    templates: async () => ({ id: 'tpl_1', roles: [{ name: 'client', verification: 'liveness_only' }], fields: [] }),
    createRow: async (c) => ({ ...(await createRow(c)), token: 't', signUrl: 'u', status: 'created', replayed: false }),
    createdUnder: async () => null,
    releaseClaim: async (_o, _t, key) => void calls.released.push(key),
    staleClaimMs: 60_000,
    flush: async () => undefined,
    holder: 'me',
    leaseMs: 30_000,
    rowsPerSecond: 1000,
    concurrency: 1,
    sleep: async () => undefined,
    stopping: () => false,
    tm: { bulkRows: { inc: () => undefined } },
    logger: silent,
    clock: () => new Date(),
    ...more,
  };
  return { d, calls };
}

describe('runBulkJob', () => {
  it('creates every row once under its own key and consumption id, then completes with bulk.completed', async () => {
    const s = fakeStore(5);
    const seen: RowCreation[] = [];
    const { d } = deps(s, async (c) => (seen.push(c), { id: seen.length, reference: `R${seen.length}` }), { concurrency: 3 });
    expect(await runBulkJob(d, 'bj_1')).toBe('completed');
    expect(s.rows.map((r) => r.status)).toEqual(Array(5).fill('created'));
    expect(new Set(seen.map((c) => c.begin.idempotencyKey)).size).toBe(5);
    expect(seen.map((c) => c.begin.consumptionId).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `bulk:bj_1:${i}:0`));
    expect(s.outbox).toHaveLength(1);
    expect(s.job.counts).toMatchObject({ rows: 5, created: 5 });
  });

  it('stops when quota and credits run out: the rest is not sent, each with the reason', async () => {
    const s = fakeStore(5);
    let made = 0;
    const { d } = deps(s, async () => {
      if (made >= 2) throw quotaExhausted('exhausted');
      return { id: ++made, reference: 'R' };
    });
    expect(await runBulkJob(d, 'bj_1')).toBe('completed');
    expect(s.rows.map((r) => r.status)).toEqual(['created', 'created', 'not_sent', 'not_sent', 'not_sent']);
    expect(s.rows[4]!.reason).toBe(QUOTA_REASON);
  });

  it('a row whose key a killed replica left claimed: its transaction found by the key, or the row left for a later pass (the claim released once stale) and made then', async () => {
    const s = fakeStore(2);
    const attempts = new Map<string, number>();
    const { d, calls } = deps(s, async (c) => {
      const k = c.begin.idempotencyKey;
      attempts.set(k, (attempts.get(k) ?? 0) + 1);
      // Row 0 and row 1 were both in flight when the replica died; row 0 had written its transaction.
      if (attempts.get(k) === 1) throw conflict('in progress', 'IDEMPOTENCY_KEY_IN_PROGRESS');
      return { id: 99, reference: 'R99' };
    });
    d.createdUnder = async (_o, _t, key) => (key === rowIdempotencyKey('bj_1', 0) ? { id: 7, reference: 'R7' } : null);
    expect(await runBulkJob(d, 'bj_1')).toBe('paused');
    expect(s.rows[0]).toMatchObject({ status: 'created', transaction_id: 7 });
    expect(calls.released).toEqual([rowIdempotencyKey('bj_1', 1)]);
    expect(await runBulkJob(d, 'bj_1')).toBe('completed');
    expect(s.rows[1]).toMatchObject({ status: 'created', transaction_id: 99, attempt: 0 });
  });

  it('a refused row fails with its reason and the others go; another error retries the row with a new attempt', async () => {
    const s = fakeStore(3);
    let flaky = true;
    const { d } = deps(s, async (c) => {
      if (c.signers[0]!.name === 'S0') throw conflict('x', 'OTHER');
      if (c.signers[0]!.name === 'S1' && flaky) {
        flaky = false;
        throw new Error('billing unavailable');
      }
      return { id: 1, reference: 'R' };
    });
    s.rows[0]!.attempt = 4; // its last attempt
    expect(await runBulkJob(d, 'bj_1')).toBe('paused');
    expect(s.rows[0]).toMatchObject({ status: 'failed', reason: expect.stringMatching(/could not be created/) });
    expect(s.rows[1]).toMatchObject({ status: 'pending', attempt: 1 });
    expect(await runBulkJob(d, 'bj_1')).toBe('completed');
    expect(s.rows.map((r) => r.status)).toEqual(['failed', 'created', 'created']);
  });

  it('stops at once when another replica took the lease, and does not complete the job', async () => {
    const s = fakeStore(3);
    s.loseLease();
    const { d } = deps(s, async () => ({ id: 1, reference: 'R' }));
    expect(await runBulkJob(d, 'bj_1')).toBe('busy');
    expect(s.rows.every((r) => r.status === 'pending')).toBe(true);
    expect(s.outbox).toHaveLength(0);
  });
});
