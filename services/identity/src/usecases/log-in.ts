import { badCredentials } from '../domain/errors.js';
import { MFA_CHALLENGE_TTL_S, challengeExpiry } from '../domain/login-challenge.js';
import { newOpaqueToken, sha256 } from '../domain/secrets.js';
import type { MfaChallengeRepository } from '../store/mfa-challenge.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { issueSession, type IssuedSession } from './issue-session.js';

export type LoginResult = { kind: 'session'; session: IssuedSession } | { kind: 'mfa'; challenge: string; expiresAt: Date };

/**
 * Email and password. An unknown email costs the same time as a wrong password and gets the same
 * answer. With TOTP on, the answer is a short-lived challenge (kept only as its hash), not a session.
 */
export async function logIn(
  deps: Pick<IdentityDeps, 'passwords' | 'sessions' | 'defaultSessionTtlHours' | 'metrics' | 'now'> & {
    users: Pick<UserRepository, 'byEmail'>;
    mfaChallenges: Pick<MfaChallengeRepository, 'create'>;
  },
  input: { email: string; password: string },
): Promise<LoginResult> {
  // No shape check (normEmail): whatever is not an account's email is a wrong credential.
  const email = input.email.trim().toLowerCase();
  const user = email && input.password ? await deps.users.byEmail(email) : null;
  const ok = await deps.passwords.verify(user?.password_hash, input.password);
  if (!user || !ok) {
    deps.metrics.logins.inc({ result: 'bad_credentials' });
    throw badCredentials();
  }
  if (user.totp_enabled) {
    const challenge = newOpaqueToken();
    await deps.mfaChallenges.create(sha256(challenge), user._id, MFA_CHALLENGE_TTL_S);
    deps.metrics.logins.inc({ result: 'mfa_required' });
    return { kind: 'mfa', challenge, expiresAt: challengeExpiry(deps.now()) };
  }
  deps.metrics.logins.inc({ result: 'ok' });
  return { kind: 'session', session: await issueSession(deps, user) };
}
