import { contention, type KeyedLock, type OutboxRelay } from '@signet/kit';
import { transactionNotFound } from '../domain/errors.js';
import { erasureDue } from '../domain/retention.js';
import type { Timers } from '../domain/lifecycle.js';
import { isPending, type Change, type TxState } from '../domain/transaction.js';
import { changeOutbox } from '../events/transaction.publisher.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

/** What every state change needs: the store, the per-transaction lock the outbox relay shares, the relay and a clock. */
export type ChangeDeps = {
  repo: Pick<TransactionRepository, 'findById' | 'findOwned' | 'update'>;
  tm: Pick<TransactionMetrics, 'transitions'>;
  lock: KeyedLock<number>;
  outbox: Pick<OutboxRelay<number>, 'flush'>;
  clock: () => Date;
  /** Retention of records written before it was stored, and the length of a retention day (shortened in tests). */
  retention?: { defaultDays: number; dayMs: number };
};

/**
 * The transaction to change; with `ownerId`, only that owner's (another owner's is NOT_FOUND), and
 * only in the caller's mode (`test`: a test-mode key; a transaction of the other mode is NOT_FOUND).
 */
export type ChangeTarget = { id: number; ownerId?: string; test?: boolean };

/** Computes a change from the state read (the pure state machine); null when the trigger no longer applies. */
export type Compute = (state: TxState, now: Date) => Change | null;

const MAX_RACES = 10;

/**
 * The one way a transaction's state changes. Under the transaction's lock: read, compute with the
 * pure state machine, write the new state, its log entries and its outbox events in one update
 * conditional on the status and version read, then publish the outbox (still under the lock, so a
 * transition and its events keep their order). A lost race (another replica wrote first) re-reads
 * and recomputes. Returns the updated record, or null when there is nothing to apply (no such
 * transaction without an owner, already applied, stale, terminal); a refused action throws the
 * state machine's typed error.
 */
export function applyChange(deps: ChangeDeps, target: ChangeTarget, compute: Compute): Promise<TransactionRecord | null> {
  return deps.lock(target.id, async () => {
    for (let i = 0; i < MAX_RACES; i++) {
      const rec = await read(deps, target);
      if (!rec) return null;
      const now = deps.clock();
      const change = compute(
        {
          status: rec.status,
          signers: rec.signers,
          certificate_issued: rec.certificate_issued,
          reference: rec.reference,
          last_resent_at: rec.last_resent_at,
          timers: timersOf(rec),
        },
        now,
      );
      if (!change) return null;
      const set: Partial<TransactionRecord> = { signers: change.signers, status: change.status };
      if (change.certificateIssued) set.certificate_issued = true;
      if (change.nowVerified) set.verified_at = now;
      if (change.reminder && !change.reminder.automatic) set.last_resent_at = change.reminder.at;
      if (change.timers) Object.assign(set, change.timers);
      // The end starts the biometric retention period (docs/privacy.md).
      if (isPending(rec.status) && !isPending(change.status) && !rec.biometrics_delete_after) {
        const r = deps.retention ?? { defaultDays: 30, dayMs: 86_400_000 };
        set.biometrics_delete_after = erasureDue(now, rec.retention_days ?? r.defaultDays, r.dayMs);
      }
      // An ended transaction owes no reminder (domain/lifecycle.ts).
      if (!isPending(change.status)) set.reminder_due_at = null;
      const log = [...change.log];
      if (change.status !== rec.status)
        log.push({
          type: 'status_changed',
          at: now,
          actor: change.statusActor ?? 'system',
          detail: `${rec.status} → ${change.status}`,
        });
      const updated = await deps.repo.update(rec, set, log, changeOutbox(rec, change));
      if (updated) {
        if (change.status !== rec.status) deps.tm.transitions.inc({ to: change.status });
        await deps.outbox.flush(target.id);
        return updated;
      }
    }
    // retryable: the gateway answers 503 with Retry-After (no id in a message that reaches the caller)
    throw contention('the transaction is changing too often; retry shortly');
  });
}

/** The record's lifecycle timers as the state machine reads them (absent on records written before them). */
function timersOf(rec: TransactionRecord): Timers | undefined {
  if (rec.reminder_every_ms === undefined && !rec.expires_at) return undefined;
  return {
    expires_at: rec.expires_at ?? null,
    reminder_due_at: rec.reminder_due_at ?? null,
    reminder_every_ms: rec.reminder_every_ms ?? 0,
    reminder_max: rec.reminder_max ?? 0,
    reminders_sent: rec.reminders_sent ?? 0,
  };
}

async function read(deps: ChangeDeps, target: ChangeTarget): Promise<TransactionRecord | null> {
  if (target.ownerId === undefined) return deps.repo.findById(target.id);
  const rec = target.id > 0 ? await deps.repo.findOwned(target.ownerId, target.id, target.test ?? false) : null;
  if (!rec) throw transactionNotFound();
  return rec;
}
