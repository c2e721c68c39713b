import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger, Metrics } from '@signet/kit';
import { applyDueDowngrade } from '../domain/account.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { AccountChanger } from '../usage/change-account.js';
import { createLease } from './lease.js';

/**
 * Applies scheduled downgrades (a cancellation's end of period) and grace-period ends at their time,
 * on one replica at a time (a Redis lease), rather than waiting for the user's next request.
 */
export function startDowngradeSweep(deps: {
  accounts: AccountRepository;
  change: AccountChanger;
  redis: Redis;
  intervalMs: number;
  metrics: Metrics;
  logger: Logger;
  leaseKey?: string;
  onChange?: () => void;
}) {
  const lease = createLease(
    deps.redis,
    deps.leaseKey ?? 'signet:billing:downgrade-sweep',
    randomUUID(),
    Math.max(deps.intervalMs * 3, 5_000),
  );
  const applied = deps.metrics.counter('signet_billing_downgrades_total', 'Downgrades applied by the sweep, by reason', [
    'reason',
  ]);
  const runs = deps.metrics.counter('signet_billing_sweep_runs_total', 'Downgrade sweep passes, by result', ['result']);
  let stopped = false;
  let running: Promise<void> | null = null;

  const pass = async () => {
    if (!(await lease.acquire())) {
      runs.inc({ result: 'not_leader' });
      return;
    }
    for (const userId of await deps.accounts.dueForDowngrade(new Date())) {
      const r = await deps.change(userId, (a, now) => applyDueDowngrade(a, now), 'downgrade_sweep');
      if (r.changed) {
        applied.inc({ reason: r.outcome });
        deps.logger.info({ outcome: r.outcome }, 'scheduled downgrade applied');
        deps.onChange?.();
      }
    }
    runs.inc({ result: 'ok' });
  };

  const tick = () => {
    if (stopped || running) return;
    running = pass()
      .catch((err) => {
        runs.inc({ result: 'error' });
        deps.logger.warn({ err }, 'downgrade sweep failed; will retry');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  tick();
  return {
    runNow: () => pass(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await lease.release().catch(() => undefined);
    },
  };
}
