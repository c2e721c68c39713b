import { userNotFound } from '../domain/errors.js';
import { checkSessionTtl } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getProfile, type Profile } from './get-profile.js';

/**
 * Sets the length of sessions issued from now on (sessions already issued keep their expiry). A
 * change (not a write of the same value) is counted and logged with the old and new value.
 */
export async function updateAccountSettings(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'metrics' | 'logger'> & {
    users: Pick<UserRepository, 'byId' | 'setSessionTtl'>;
  },
  userId: string,
  requestedHours: number,
): Promise<Profile> {
  const hours = checkSessionTtl(requestedHours);
  const before = userId ? await deps.users.setSessionTtl(userId, hours) : null;
  if (!before) throw userNotFound();
  if (before.previous !== hours) {
    deps.metrics.settings.inc({ setting: 'session_ttl_hours' });
    deps.logger.info({ userId, setting: 'session_ttl_hours', from: before.previous, to: hours }, 'account setting changed');
  }
  return getProfile(deps, userId);
}
