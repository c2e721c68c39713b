import { eventsV1 } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import type { BillingDeps } from '../usecases/deps.js';
import { rememberUser } from '../usecases/remember-user.js';

export const USER_CREATED_SUBJECT = 'signet.identity.user.created';

/** `signet.identity.user.created` → the user directory (durable `billing-identity-user-created`). */
export function userCreatedConsumer(deps: Pick<BillingDeps, 'users' | 'logger'>) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = eventsV1.UserCreated.decode(delivered.data);
    await rememberUser(deps, {
      eventId: delivered.eventId,
      userId: ev.userId,
      email: ev.email,
      createdAt: ev.occurredAt ? new Date(ev.occurredAt) : new Date(),
    });
  };
}
