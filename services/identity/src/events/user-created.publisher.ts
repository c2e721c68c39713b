import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';

export const USER_CREATED_SUBJECT = 'signet.identity.user.created';

/** The `user.created` outbox entry, written in the insert that creates the account and published by the relay. */
export function userCreatedEvent(userId: string, email: string, orgName: string): OutboxEntry {
  return outboxEvent(USER_CREATED_SUBJECT, (meta) =>
    eventsV1.UserCreated.encode({ eventId: meta.event_id, occurredAt: meta.occurred_at, userId, email, orgName }).finish(),
  );
}
