import { effectiveLifecycle, type LifecycleOperator } from '../domain/lifecycle-settings.js';
import { orgOf, roleOf, type Role } from '../domain/roles.js';
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
  /** The account's expiry and reminder defaults, or the operator's where it has none. */
  lifecycle: ReturnType<typeof effectiveLifecycle>;
  /** Origins that may frame the account's signing pages. */
  embedOrigins: string[];
  createdAt: Date;
  /** The organisation (its owner's user id) and the user's role in it. */
  ownerId: string;
  role: Role;
};

/** The transaction service's defaults, when the operator's are not given (tests). */
export const OPERATOR_LIFECYCLE: LifecycleOperator = {
  expirySeconds: 30 * 86_400,
  expiryMaxSeconds: 180 * 86_400,
  reminderFirstSeconds: 3 * 86_400,
  reminderEverySeconds: 3 * 86_400,
  reminderMax: 3,
};

function profileOf(
  user: UserRecord,
  org: UserRecord,
  defaultSessionTtlHours: number,
  defaultRetentionDays: number,
  lifecycle: LifecycleOperator,
): Profile {
  return {
    userId: user._id,
    email: user.email,
    name: user.name,
    orgName: org.org_name,
    twoFactorEnabled: user.totp_enabled,
    sessionTtlHours: sessionTtlHours(org.session_ttl_hours, defaultSessionTtlHours),
    biometricRetentionDays: org.biometric_retention_days ?? defaultRetentionDays,
    lifecycle: effectiveLifecycle(org, lifecycle),
    embedOrigins: org.embed_origins ?? [],
    createdAt: user.created_at,
    ownerId: orgOf(user),
    role: roleOf(user),
  };
}

/** The account as its owner sees it on the settings page. */
export async function getProfile(
  deps: Pick<IdentityDeps, 'defaultSessionTtlHours' | 'biometricRetention' | 'lifecycle'> & {
    users: Pick<UserRepository, 'byId'>;
  },
  userId: string,
): Promise<Profile> {
  const user = await getUser(deps, userId);
  // A member sees their own name, email and two-factor state, and the organisation's settings.
  const org = user.org_id ? ((await deps.users.byId(user.org_id)) ?? user) : user;
  return profileOf(
    user,
    org,
    deps.defaultSessionTtlHours,
    deps.biometricRetention?.defaultDays ?? 30,
    deps.lifecycle ?? OPERATOR_LIFECYCLE,
  );
}
