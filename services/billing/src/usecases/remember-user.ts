import type { UserDirectory } from '../store/user-directory.repository.js';
import type { BillingDeps } from './deps.js';

/**
 * Keeps billing's user id ↔ email directory (webhooks name the customer by email); an upsert, so a
 * redelivered user.created changes nothing. A fact without user id or email is skipped.
 */
export async function rememberUser(
  deps: Pick<BillingDeps, 'logger'> & { users: Pick<UserDirectory, 'remember'> },
  input: { eventId: string; userId: string; email: string; createdAt: Date },
): Promise<void> {
  if (!input.userId || !input.email) {
    deps.logger.warn({ event_id: input.eventId }, 'user.created without user id or email skipped');
    return;
  }
  await deps.users.remember(input.userId, input.email, input.createdAt);
}
