import { randomUUID } from 'node:crypto';
import { applyExpire, applyReminderDue } from '../domain/lifecycle.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TimerStore } from '../store/timers.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

export type TimerDeps = ChangeDeps & {
  timers: Pick<TimerStore, 'claimTimer' | 'releaseTimer'>;
  tm: Pick<TransactionMetrics, 'reminders' | 'expiries'>;
  /** How long a claim on one record holds (a replica killed mid-way leaves it to expire). */
  leaseMs: number;
};

/**
 * Runs one transaction's due timer: claims the record (one replica at a time; a killed one's claim
 * expires), then applies the expiry, else the reminder, through the state machine in one conditional
 * write that also moves the due time and carries the mail request on the outbox. The mail is sent by
 * the link-mail consumer, keyed by that write's version: a crash before the write leaves the timer due
 * (it runs again once the claim expires), a crash after it leaves the request in the outbox (relayed
 * on restart, mailed once). So a reminder is neither lost nor doubled.
 */
export async function runLifecycleTimer(deps: TimerDeps, id: number): Promise<'expired' | 'reminded' | 'none'> {
  const holder = randomUUID();
  const now = deps.clock();
  const claimed = await deps.timers.claimTimer(id, holder, now, new Date(now.getTime() + deps.leaseMs));
  if (!claimed) return 'none';
  try {
    const ran: { what: 'expired' | 'reminded' | 'none' } = { what: 'none' };
    const updated = await applyChange(deps, { id }, (state, at) => {
      const expired = applyExpire(state, at);
      const change = expired ?? applyReminderDue(state, at);
      ran.what = expired ? 'expired' : change?.reminder ? 'reminded' : 'none';
      return change;
    });
    if (!updated) return 'none';
    if (ran.what === 'expired') deps.tm.expiries.inc({});
    if (ran.what === 'reminded') deps.tm.reminders.inc({});
    return ran.what;
  } finally {
    await deps.timers.releaseTimer(id, holder);
  }
}
