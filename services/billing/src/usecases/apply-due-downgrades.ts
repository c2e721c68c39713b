import { applyDueDowngrade } from '../domain/account.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { BillingDeps } from './deps.js';

/**
 * Applies every scheduled downgrade (a cancellation's end of period) and grace-period end that has
 * come, through the one write path; returns how many accounts fell to Free. Run by the sweep job.
 */
export async function applyDueDowngrades(
  deps: Pick<BillingDeps, 'change' | 'metrics' | 'logger' | 'onAccountChanged'> & {
    accounts: Pick<AccountRepository, 'dueForDowngrade'>;
  },
): Promise<number> {
  let n = 0;
  for (const userId of await deps.accounts.dueForDowngrade(new Date())) {
    const r = await deps.change(userId, (a, now) => applyDueDowngrade(a, now), 'downgrade_sweep');
    if (r.changed) {
      n++;
      deps.metrics.downgrades.inc({ reason: r.outcome });
      deps.logger.info({ outcome: r.outcome }, 'scheduled downgrade applied');
      deps.onAccountChanged();
    }
  }
  return n;
}
