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
  createdAt: Date;
};

function profileOf(user: UserRecord, defaultSessionTtlHours: number): Profile {
  return {
    userId: user._id,
    email: user.email,
    name: user.name,
    orgName: user.org_name,
    twoFactorEnabled: user.totp_enabled,
    sessionTtlHours: sessionTtlHours(user.session_ttl_hours, defaultSessionTtlHours),
    createdAt: user.created_at,
  };
}

/** The account as its owner sees it on the settings page. */
export async function getProfile(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours'> & { users: Pick<UserRepository, 'byId'> },
  userId: string,
): Promise<Profile> {
  return profileOf(await getUser(deps, userId), deps.defaultSessionTtlHours);
}
