import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import type { AccountState } from '../domain/account.js';

export const ACCOUNT_CHANGED_SUBJECT = 'signet.billing.account.changed';

/**
 * The `account.changed` outbox entry, written on the account version it describes and published by
 * the relay. `creditsSpent` turns the credits granted into the balance callers see.
 */
export function accountChangedEvent(userId: string, next: AccountState, creditsSpent: number): OutboxEntry {
  return outboxEvent(ACCOUNT_CHANGED_SUBJECT, (meta) =>
    eventsV1.AccountChanged.encode({
      eventId: meta.event_id,
      occurredAt: meta.occurred_at,
      userId,
      plan: next.plan,
      signatureCredits: Math.max(0, next.credits_granted - creditsSpent),
      pastDue: next.past_due,
    }).finish(),
  );
}
