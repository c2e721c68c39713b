import type { Model } from 'mongoose';
import { PENDING } from '../domain/transaction.js';
import { claimLease, releaseLease } from './lease.js';
import type { TransactionRecord } from './transaction.schema.js';

const TIMER_LEASE = { holder: 'timer_lease', until: 'timer_lease_until' };

/** Pending and either past its expiry or owing a reminder at `now`. */
const dueFilter = (now: Date) => ({
  status: { $in: [...PENDING] },
  $or: [{ expires_at: { $lte: now } }, { reminder_due_at: { $lte: now } }],
});

/**
 * The durable lifecycle timers (jobs/lifecycle-timers.job.ts): which pending transactions are due
 * (expired, or owing a reminder), a leased claim per record, and its release. The due times are fields
 * of the record, so they survive restarts; the claim makes one replica act on a record at a time.
 */
export function createTimerStore(model: Model<any>) {
  return {
    async dueTimers(now: Date, limit: number): Promise<Pick<TransactionRecord, '_id'>[]> {
      return model.find(dueFilter(now), { _id: 1 }).sort({ _id: 1 }).limit(limit).lean<Pick<TransactionRecord, '_id'>[]>();
    },
    /** Claims a due record for `holder` until `until` (null when it is no longer due or another claim holds). */
    async claimTimer(id: number, holder: string, now: Date, until: Date): Promise<TransactionRecord | null> {
      return claimLease<TransactionRecord>(model, TIMER_LEASE, id, dueFilter(now), { holder, now, until });
    },
    async releaseTimer(id: number, holder: string): Promise<void> {
      await releaseLease(model, TIMER_LEASE, id, holder);
    },
  };
}
export type TimerStore = ReturnType<typeof createTimerStore>;
