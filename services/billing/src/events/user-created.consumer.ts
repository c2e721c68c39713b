import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import type { BillingDeps } from '../usecases/deps.js';
import { applyHeldDeliveries } from '../usecases/apply-held-deliveries.js';
import { rememberUser } from '../usecases/remember-user.js';

/**
 * `signet.identity.user.created` → the user directory (durable `billing-identity-user-created`),
 * then the payment deliveries that named this user before billing knew them.
 */
export function userCreatedConsumer(deps: BillingDeps) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.userCreated.message.decode(delivered.data);
    await rememberUser(deps, {
      eventId: delivered.eventId,
      userId: ev.userId,
      email: ev.email,
      createdAt: ev.occurredAt ? new Date(ev.occurredAt) : new Date(),
    });
    if (ev.userId && ev.email) await applyHeldDeliveries(deps, { userId: ev.userId, email: ev.email });
  };
}
