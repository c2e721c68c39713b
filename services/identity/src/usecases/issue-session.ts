import { sessionTtlHours } from '../domain/session.js';
import type { UserRecord } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';

export type IssuedSession = { token: string; userId: string; email: string; orgName: string; expiresAt: Date };

/** A session JWT for the user, as long as the account's session length (or the default), under its password version. */
export async function issueSession(
  deps: Pick<IdentityDeps, 'sessions' | 'defaultSessionTtlHours' | 'now'>,
  user: UserRecord,
): Promise<IssuedSession> {
  const { token, claims } = await deps.sessions.issue(
    user._id,
    user.password_version,
    sessionTtlHours(user.session_ttl_hours, deps.defaultSessionTtlHours),
    new Date(deps.now()),
  );
  return { token, userId: user._id, email: user.email, orgName: user.org_name, expiresAt: claims.expiresAt };
}
