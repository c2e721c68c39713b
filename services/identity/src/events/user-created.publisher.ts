import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `user.created` outbox entry, written in the insert that creates the account and published by the relay. */
export function userCreatedEvent(userId: string, email: string, orgName: string): OutboxEntry {
  return outboxEvent(events.userCreated, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    userId,
    email,
    orgName,
  }));
}
