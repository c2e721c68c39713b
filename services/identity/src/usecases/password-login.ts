import { badCredentials } from '../domain/errors.js';
import type { ClientInfo } from '../domain/audit.js';
import { MFA_CHALLENGE_TTL_S, challengeExpiry } from '../domain/login-challenge.js';
import { newOpaqueToken, sha256 } from '../domain/secrets.js';
import { issueSession, type IssuedSession } from './issue-session.js';
import { recordAudit } from './record-audit.js';
import { secondFactorsOf } from './second-factors.js';
import type { SecurityDeps } from './security-deps.js';

export type PasswordLoginResult =
  { kind: 'session'; session: IssuedSession } | { kind: 'second_factor'; challenge: string; expiresAt: Date; methods: string[] };

/**
 * Email and password (as logIn), audited: a wrong password of a known account is logged on that
 * account with the client's address; an unknown email is logged nowhere (there is no account) and
 * gets the same answer. An account with a second factor gets a challenge naming the factors.
 */
export async function passwordLogin(
  deps: SecurityDeps,
  input: { email: string; password: string; client: ClientInfo },
): Promise<PasswordLoginResult> {
  const email = input.email.trim().toLowerCase();
  const user = email && input.password ? await deps.users.byEmail(email) : null;
  const ok = await deps.passwords.verify(user?.password_hash, input.password);
  if (!user || !ok) {
    deps.metrics.logins.inc({ result: 'bad_credentials' });
    if (user) await recordAudit(deps, user, 'auth.login.failed', input.client, { details: { reason: 'bad_password' } });
    throw badCredentials();
  }
  const methods = await secondFactorsOf(deps, user);
  if (methods.length) {
    const challenge = newOpaqueToken();
    await deps.mfaChallenges.create(sha256(challenge), user._id, MFA_CHALLENGE_TTL_S);
    deps.metrics.logins.inc({ result: 'mfa_required' });
    return { kind: 'second_factor', challenge, expiresAt: challengeExpiry(deps.now()), methods };
  }
  const session = await issueSession(deps, user);
  deps.metrics.logins.inc({ result: 'ok' });
  await recordAudit(deps, user, 'auth.login.succeeded', input.client, { details: { method: 'password' } });
  return { kind: 'session', session };
}
