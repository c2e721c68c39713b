import { outboxEvent } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { newAccount, type AccountState, type Applied } from '../domain/account.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository } from '../store/consumption.repository.js';

export const ACCOUNT_CHANGED_SUBJECT = 'signet.billing.account.changed';

const visible = (a: AccountState) =>
  JSON.stringify([a.plan, a.credits_granted, a.past_due, a.past_due_since?.getTime() ?? null, a.downgrade_at?.getTime() ?? null]);

export type AccountChanger = (
  userId: string,
  compute: (a: AccountState, now: Date) => Applied,
  cause: string,
) => Promise<Applied>;

/**
 * Reads the current account version, computes the change with a pure domain function and appends
 * it as the next version; losing the race to a concurrent writer reads again and recomputes, so
 * concurrent webhook deliveries serialise per account. When plan, credits or past-due change, the
 * `signet.billing.account.changed` event is written with the version (outbox).
 */
export function accountChanger(accounts: AccountRepository, consumptions: ConsumptionRepository): AccountChanger {
  return async (userId, compute, cause) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const now = new Date();
      const current = (await accounts.latest(userId)) ?? newAccount(userId);
      const applied = compute(current, now);
      if (!applied.changed) return applied;
      const next = applied.state;
      let outbox: ReturnType<typeof outboxEvent>[] = [];
      if (visible(current) !== visible(next)) {
        const spent = await consumptions.count(userId, 'credit', 'credit');
        outbox = [
          outboxEvent(ACCOUNT_CHANGED_SUBJECT, (meta) =>
            eventsV1.AccountChanged.encode({
              eventId: meta.event_id,
              occurredAt: meta.occurred_at,
              userId,
              plan: next.plan,
              signatureCredits: Math.max(0, next.credits_granted - spent),
              pastDue: next.past_due,
            }).finish(),
          ),
        ];
      }
      if (await accounts.append(current, next, outbox, cause)) return applied;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(100, 5 * 2 ** Math.min(attempt, 5))));
    }
    throw new Error('account is changing too often to apply this change; retry');
  };
}
