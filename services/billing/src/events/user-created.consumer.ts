import { eventsV1 } from '@signet/proto';
import type { DeliveredEvent, Logger } from '@signet/kit';
import type { UserDirectory } from '../store/user-directory.repository.js';

export const USER_CREATED_SUBJECT = 'signet.identity.user.created';

/** Keeps billing's user id ↔ email directory; an upsert, so a redelivery changes nothing. */
export function userCreatedConsumer(deps: { users: UserDirectory; logger: Logger }) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = eventsV1.UserCreated.decode(delivered.data);
    if (!ev.userId || !ev.email) {
      deps.logger.warn({ event_id: delivered.eventId }, 'user.created without user id or email skipped');
      return;
    }
    await deps.users.remember(ev.userId, ev.email, ev.occurredAt ? new Date(ev.occurredAt) : new Date());
  };
}
