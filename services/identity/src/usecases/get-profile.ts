import { sessionTtlHours } from '../domain/session.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

export type Profile = {
  userId: string;
  email: string;
  name: string;
  orgName: string;
  twoFactorEnabled: boolean;
  /** The account's session length, or the default when it has none. */
  sessionTtlHours: number;
  /** The account's biometric retention in days, or the default when it has none. */
  biometricRetentionDays: number;
  createdAt: Date;
};

function profileOf(user: UserRecord, defaultSessionTtlHours: number, defaultRetentionDays: number): Profile {
  return {
    userId: user._id,
    email: user.email,
    name: user.name,
    orgName: user.org_name,
    twoFactorEnabled: user.totp_enabled,
    sessionTtlHours: sessionTtlHours(user.session_ttl_hours, defaultSessionTtlHours),
    biometricRetentionDays: user.biometric_retention_days ?? defaultRetentionDays,
    createdAt: user.created_at,
  };
}

/** The account as its owner sees it on the settings page. */
export async function getProfile(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'biometricRetention'> & { users: Pick<UserRepository, 'byId'> },
  userId: string,
): Promise<Profile> {
  return profileOf(await getUser(deps, userId), deps.defaultSessionTtlHours, deps.biometricRetention?.defaultDays ?? 30);
}
