import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { TimerStore } from '../store/timers.repository.js';
import { runLifecycleTimer, type TimerDeps } from '../usecases/run-lifecycle-timer.js';

const BATCH = 100;

export type TimerJobDeps = TimerDeps & {
  timers: Pick<TimerStore, 'dueTimers'>;
  logger: Logger;
  /** 0: no timer; call run() yourself. */
  intervalMs: number;
};

/**
 * The lifecycle timer job: every `intervalMs` (and at start), expires each pending transaction past
 * its `expires_at` and sends each reminder that fell due (usecases/run-lifecycle-timer.ts). The due
 * times are fields of the records and each record is claimed with a lease, as the biometric erasure
 * job does (store/lease.ts): timers survive restarts and run once across replicas; nothing is held in
 * memory but the period. A record that fails is logged and retried on a later pass.
 */
export function createLifecycleTimerJob(deps: TimerJobDeps) {
  const pass = async () => {
    // Batch after batch while a full one made progress (a backlog after downtime drains in one pass).
    for (;;) {
      const due = await deps.timers.dueTimers(deps.clock(), BATCH);
      const done = { expired: 0, reminded: 0 };
      for (const rec of due) {
        try {
          const what = await runLifecycleTimer(deps, rec._id);
          if (what !== 'none') done[what]++;
        } catch (err) {
          deps.logger.warn({ err, transaction_id: rec._id }, 'lifecycle timer failed; retried on a later pass');
        }
      }
      if (done.expired || done.reminded) deps.logger.info(done, 'lifecycle timers ran');
      if (due.length < BATCH || done.expired + done.reminded === 0) return;
    }
  };
  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.intervalMs || 60_000,
    failure: 'lifecycle timer pass failed; next pass retries',
  });
  if (deps.intervalMs) runner.start({ immediately: true });
  return { run: runner.run, stop: runner.stop };
}
export type LifecycleTimerJob = ReturnType<typeof createLifecycleTimerJob>;
