import { userNotFound } from '../domain/errors.js';
import { checkRetentionDays, checkSessionTtl } from '../domain/validate.js';
import { settingsChangedEvent } from '../events/settings-changed.publisher.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getProfile, type Profile } from './get-profile.js';

/**
 * Sets the length of sessions issued from now on (sessions already issued keep their expiry) and,
 * when given, the biometric retention of transactions created from now on (carried to the transaction
 * service by `identity.settings.changed`, written in the same update). Both are checked before
 * anything is written; 0 hours leaves the session length unchanged when a retention is given. A
 * change (not a write of the same value) is counted and logged with the old and new value.
 */
export async function updateAccountSettings(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'biometricRetention' | 'metrics' | 'logger' | 'onUserCreated'> & {
    users: Pick<UserRepository, 'byId' | 'setSessionTtl' | 'setBiometricRetention'>;
  },
  userId: string,
  requestedHours: number,
  requestedRetentionDays?: number,
): Promise<Profile> {
  const retention = deps.biometricRetention ?? { defaultDays: 30, maxDays: 365 };
  const keepHours = requestedHours === 0 && requestedRetentionDays !== undefined;
  const hours = keepHours ? 0 : checkSessionTtl(requestedHours);
  const days = requestedRetentionDays === undefined ? undefined : checkRetentionDays(requestedRetentionDays, retention.maxDays);
  if (!userId || !(await deps.users.byId(userId))) throw userNotFound();
  if (!keepHours) {
    const before = await deps.users.setSessionTtl(userId, hours);
    if (!before) throw userNotFound();
    if (before.previous !== hours) changed(deps, userId, 'session_ttl_hours', before.previous, hours);
  }
  if (days !== undefined) {
    const before = await deps.users.setBiometricRetention(userId, days, settingsChangedEvent(userId, days));
    if (!before) throw userNotFound();
    deps.onUserCreated();
    if (before.previous !== days) changed(deps, userId, 'biometric_retention_days', before.previous, days);
  }
  return getProfile(deps, userId);
}

function changed(deps: Pick<IdentityDeps, 'metrics' | 'logger'>, userId: string, setting: string, from: unknown, to: number) {
  deps.metrics.settings.inc({ setting });
  deps.logger.info({ userId, setting, from, to }, 'account setting changed');
}
