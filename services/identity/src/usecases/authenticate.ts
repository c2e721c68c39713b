import { apiKeyInvalid, sessionInvalid } from '../domain/errors.js';
import { API_KEY_PATTERN, apiKeyPrefixOf, sameHash, sha256, type ApiKeyMode } from '../domain/secrets.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';

/** Who a credential belongs to. A session principal carries its id (CSRF binds to it) and expiry. */
export type Principal =
  | { method: 'api_key'; userId: string; email: string; orgName: string; mode: ApiKeyMode }
  | { method: 'session'; userId: string; email: string; orgName: string; sessionId: string; expiresAt: Date };

/** An active API key whose hash matches; its last use is recorded (coarsely, by the repository). */
export async function authenticateApiKey(
  deps: Pick<IdentityDeps, 'metrics'> & {
    apiKeys: Pick<ApiKeyRepository, 'activeByPrefix' | 'touch'>;
    users: Pick<UserRepository, 'byId'>;
  },
  key: string,
): Promise<Principal> {
  const rec = API_KEY_PATTERN.test(key) ? await deps.apiKeys.activeByPrefix(apiKeyPrefixOf(key)) : null;
  const user = rec && sameHash(rec.hash, sha256(key)) ? await deps.users.byId(rec.user_id) : null;
  if (!rec || !user) {
    deps.metrics.authentications.inc({ method: 'api_key', result: 'rejected' });
    throw apiKeyInvalid();
  }
  await deps.apiKeys.touch(rec._id);
  deps.metrics.authentications.inc({ method: 'api_key', result: 'ok' });
  return { method: 'api_key', userId: user._id, email: user.email, orgName: user.org_name, mode: rec.mode ?? 'live' };
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
    method: 'session',
    userId: user._id,
    email: user.email,
    orgName: user.org_name,
    sessionId: claims.sessionId,
    expiresAt: claims.expiresAt,
  };
}
