import { userNotFound } from '../domain/errors.js';
import { checkLifecycle, type LifecycleSettings } from '../domain/lifecycle-settings.js';
import { checkRetentionDays, checkSessionTtl } from '../domain/validate.js';
import { settingsChangedEvent } from '../events/settings-changed.publisher.js';
import type { AccountSetting, UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getProfile, OPERATOR_LIFECYCLE, type Profile } from './get-profile.js';

/** The settings the transaction service applies, as the owner asks for them (absent: unchanged). */
export type TransactionSettings = { biometric_retention_days?: number } & LifecycleSettings;

/**
 * Sets the length of sessions issued from now on (sessions already issued keep their expiry) and,
 * when given, the settings the transaction service applies to transactions created from now on: the
 * biometric retention and the expiry and reminder defaults (carried by `identity.settings.changed`,
 * written in the same update). All are checked before anything is written; 0 hours leaves the session
 * length unchanged when another setting is given. A change (not a write of the same value) is
 * counted and logged with the old and new value.
 */
export async function updateAccountSettings(
  deps: Pick<
    IdentityDeps,
    'defaultSessionTtlHours' | 'biometricRetention' | 'lifecycle' | 'metrics' | 'logger' | 'onUserCreated'
  > & {
    users: Pick<UserRepository, 'byId' | 'setSessionTtl' | 'setAccountSettings'>;
  },
  userId: string,
  requestedHours: number,
  requested: TransactionSettings = {},
): Promise<Profile> {
  const retention = deps.biometricRetention ?? { defaultDays: 30, maxDays: 365 };
  const { biometric_retention_days: requestedDays, ...lifecycle } = requested;
  const set: Partial<Record<AccountSetting, number>> = {
    ...(requestedDays === undefined ? {} : { biometric_retention_days: checkRetentionDays(requestedDays, retention.maxDays) }),
    ...checkLifecycle(lifecycle, deps.lifecycle ?? OPERATOR_LIFECYCLE),
  };
  const others = Object.keys(set).length > 0;
  const keepHours = requestedHours === 0 && others;
  const hours = keepHours ? 0 : checkSessionTtl(requestedHours);
  if (!userId || !(await deps.users.byId(userId))) throw userNotFound();
  if (!keepHours) {
    const before = await deps.users.setSessionTtl(userId, hours);
    if (!before) throw userNotFound();
    if (before.previous !== hours) changed(deps, userId, 'session_ttl_hours', before.previous, hours);
  }
  if (others) {
    const before = await deps.users.setAccountSettings(userId, set, settingsChangedEvent(userId, set));
    if (!before) throw userNotFound();
    deps.onUserCreated();
    for (const [setting, to] of Object.entries(set) as [AccountSetting, number][])
      if (before.previous[setting] !== to) changed(deps, userId, setting, before.previous[setting], to);
  }
  return getProfile(deps, userId);
}

function changed(deps: Pick<IdentityDeps, 'metrics' | 'logger'>, userId: string, setting: string, from: unknown, to: number) {
  deps.metrics.settings.inc({ setting });
  deps.logger.info({ userId, setting, from, to }, 'account setting changed');
}
