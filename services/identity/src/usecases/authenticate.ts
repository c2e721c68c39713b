import { apiKeyInvalid, sessionInvalid } from '../domain/errors.js';
import { API_KEY_PATTERN, apiKeyPrefixOf, sameHash, sha256, type ApiKeyMode } from '../domain/secrets.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import { keyRole, orgOf, roleOf, scopesOfRole, type Role } from '../domain/roles.js';
import type { IdentityDeps } from './deps.js';

/** The member behind a credential: their organisation (its owner's id) and what they may do there. */
type Member = { userId: string; email: string; orgName: string; ownerId: string; role: Role };

/**
 * Who a credential belongs to. A session principal carries its id (CSRF binds to it) and expiry; a
 * key's role is bounded by its scopes and its member's role now, and it carries its expiry, if any.
 */
export type Principal =
  | (Member & { method: 'api_key'; mode: ApiKeyMode; scopes: string[]; expiresAt: Date | null })
  | (Member & { method: 'session'; sessionId: string; expiresAt: Date });

const memberOf = (user: UserRecord): Member => ({
  userId: user._id,
  email: user.email,
  orgName: user.org_name,
  ownerId: orgOf(user),
  role: roleOf(user),
});

/** An active, unexpired API key whose hash matches; its last use is recorded (coarsely, by the repository). */
export async function authenticateApiKey(
  deps: Pick<IdentityDeps, 'metrics'> &
    Partial<Pick<IdentityDeps, 'now'>> & {
      apiKeys: Pick<ApiKeyRepository, 'activeByPrefix' | 'touch'>;
      users: Pick<UserRepository, 'byId'>;
    },
  key: string,
): Promise<Principal> {
  const found = API_KEY_PATTERN.test(key) ? await deps.apiKeys.activeByPrefix(apiKeyPrefixOf(key)) : null;
  const now = deps.now?.() ?? Date.now();
  const rec = found && (!found.expires_at || found.expires_at.getTime() > now) ? found : null;
  const user = rec && sameHash(rec.hash, sha256(key)) ? await deps.users.byId(rec.user_id) : null;
  if (!rec || !user) {
    deps.metrics.authentications.inc({ method: 'api_key', result: 'rejected' });
    throw apiKeyInvalid();
  }
  await deps.apiKeys.touch(rec._id);
  deps.metrics.authentications.inc({ method: 'api_key', result: 'ok' });
  const member = memberOf(user);
  // Keys made before scopes act as their member's role; a key's scopes never lift it above that role.
  const role = keyRole(member.role, rec.scopes ?? []);
  return {
    ...member,
    role,
    method: 'api_key',
    mode: rec.mode ?? 'live',
    scopes: rec.scopes ?? scopesOfRole(member.role),
    expiresAt: rec.expires_at ?? null,
  };
}

/** A valid, unexpired session JWT issued under the user's current password version. */
export async function authenticateSession(
  deps: Pick<IdentityDeps, 'metrics' | 'sessions'> & { users: Pick<UserRepository, 'byId'> },
  token: string,
): Promise<Principal> {
  const claims = await deps.sessions.verify(token);
  const user = claims ? await deps.users.byId(claims.userId) : null;
  if (!claims || !user || user.password_version !== claims.passwordVersion) {
    deps.metrics.authentications.inc({ method: 'session', result: 'rejected' });
    throw sessionInvalid();
  }
  deps.metrics.authentications.inc({ method: 'session', result: 'ok' });
  return {
    ...memberOf(user),
    method: 'session',
    sessionId: claims.sessionId,
    expiresAt: claims.expiresAt,
  };
}
