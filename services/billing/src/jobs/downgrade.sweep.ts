import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@signet/kit';
import type { BillingMetrics } from '../metrics.js';
import { applyDueDowngrades } from '../usecases/apply-due-downgrades.js';
import type { BillingDeps } from '../usecases/deps.js';
import { createLease } from './lease.js';

/**
 * Runs applyDueDowngrades every `intervalMs` on one replica at a time (a Redis lease), so scheduled
 * downgrades and grace-period ends apply at their time rather than at the user's next request.
 */
export function startDowngradeSweep(
  deps: Pick<BillingDeps, 'accounts' | 'change' | 'onAccountChanged'> & {
    redis: Redis;
    intervalMs: number;
    metrics: BillingMetrics;
    logger: Logger;
    leaseKey?: string;
  },
) {
  const lease = createLease(
    deps.redis,
    deps.leaseKey ?? 'signet:billing:downgrade-sweep',
    randomUUID(),
    Math.max(deps.intervalMs * 3, 5_000),
  );
  const runs = deps.metrics.sweepRuns;
  let stopped = false;
  let running: Promise<void> | null = null;

  const pass = async () => {
    if (!(await lease.acquire())) {
      runs.inc({ result: 'not_leader' });
      return;
    }
    await applyDueDowngrades(deps);
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
