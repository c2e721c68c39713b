import { contention } from '@signet/kit';
import { newAccount, type AccountState, type Applied } from '../domain/account.js';
import { accountChangedEvent } from '../events/account-changed.publisher.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository } from '../store/consumption.repository.js';
import { CREDIT_PERIOD } from '../domain/plans.js';

const visible = (a: AccountState) =>
  JSON.stringify([a.plan, a.credits_granted, a.past_due, a.past_due_since?.getTime() ?? null, a.downgrade_at?.getTime() ?? null]);

export type AccountChanger = (
  userId: string,
  compute: (a: AccountState, now: Date) => Applied,
  cause: string,
) => Promise<Applied>;

/**
 * The one write path of account state. Reads the current account version, computes the change with
 * a pure domain function and appends it as the next version; losing the race to a concurrent writer
 * reads again and recomputes, so concurrent webhook deliveries serialise per account. When plan,
 * credits or past-due change, the `signet.billing.account.changed` event is written with the version
 * (outbox).
 */
export function accountChanger(
  accounts: Pick<AccountRepository, 'latest' | 'append'>,
  consumptions: Pick<ConsumptionRepository, 'count'>,
): AccountChanger {
  return async (userId, compute, cause) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const now = new Date();
      const current = (await accounts.latest(userId)) ?? newAccount(userId);
      const applied = compute(current, now);
      if (!applied.changed) return applied;
      const next = applied.state;
      const outbox =
        visible(current) !== visible(next)
          ? [accountChangedEvent(userId, next, await consumptions.count(userId, 'credit', CREDIT_PERIOD))]
          : [];
      if (await accounts.append(current, next, outbox, cause)) return applied;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(100, 5 * 2 ** Math.min(attempt, 5))));
    }
    throw contention('the account is changing too often; retry shortly');
  };
}
