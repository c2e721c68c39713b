import { userNotFound } from '../domain/errors.js';
import { checkLifecycle, type LifecycleSettings } from '../domain/lifecycle-settings.js';
import { checkRetentionDays, checkSessionTtl } from '../domain/validate.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import { settingsChangedEvent } from '../events/settings-changed.publisher.js';
import type { AccountSetting, UserRecord, UserRepository } from '../store/user.repository.js';
import { auditActorOf, type AuditBy } from './audit-actor.js';
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
 * counted and logged with the old and new value, and recorded in the audit log (settings.changed, each
 * changed setting's new and previous value) by an entry written with the first of the updates.
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
  by: AuditBy = {},
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
  const owner = userId ? await deps.users.byId(userId) : null;
  if (!owner) throw userNotFound();
  const wanted: Record<string, number> = keepHours ? { ...set } : { session_ttl_hours: hours, ...set };
  let audit = await settingsAudit(deps, owner, wanted, by);
  if (!keepHours) {
    const before = await deps.users.setSessionTtl(userId, hours, audit);
    audit = [];
    if (!before) throw userNotFound();
    if (before.previous !== hours) changed(deps, userId, 'session_ttl_hours', before.previous, hours);
  }
  if (others) {
    const before = await deps.users.setAccountSettings(userId, set, [settingsChangedEvent(userId, set), ...audit]);
    if (!before) throw userNotFound();
    for (const [setting, to] of Object.entries(set) as [AccountSetting, number][])
      if (before.previous[setting] !== to) changed(deps, userId, setting, before.previous[setting], to);
  }
  deps.onUserCreated();
  return getProfile(deps, userId);
}

function changed(deps: Pick<IdentityDeps, 'metrics' | 'logger'>, userId: string, setting: string, from: unknown, to: number) {
  deps.metrics.settings.inc({ setting });
  deps.logger.info({ userId, setting, from, to }, 'account setting changed');
}

/** The settings.changed entry of the settings that differ from the account's now (none: no entry). */
async function settingsAudit(
  deps: { users: Pick<UserRepository, 'byId'> },
  owner: UserRecord,
  wanted: Record<string, number>,
  by: AuditBy,
) {
  const now = owner as unknown as Record<string, number | null | undefined>;
  const details: Record<string, string> = {};
  for (const [setting, to] of Object.entries(wanted)) {
    if ((now[setting] ?? null) === to) continue;
    details[setting] = String(to);
    details[`previous_${setting}`] = now[setting] == null ? 'default' : String(now[setting]);
  }
  if (Object.keys(details).length === 0) return [];
  const { actor, client } = await auditActorOf(deps, owner, by);
  return [auditRecordedEvent({ action: 'settings.changed', actor, client, target: owner._id, details })];
}
