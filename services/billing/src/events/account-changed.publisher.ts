import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { AccountState } from '../domain/account.js';

/**
 * The `account.changed` outbox entry, written on the account version it describes and published by
 * the relay. `creditsSpent` turns the credits granted into the balance callers see.
 */
export function accountChangedEvent(userId: string, next: AccountState, creditsSpent: number): OutboxEntry {
  return outboxEvent(events.accountChanged, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    userId,
    plan: next.plan,
    signatureCredits: Math.max(0, next.credits_granted - creditsSpent),
    pastDue: next.past_due,
  }));
}
