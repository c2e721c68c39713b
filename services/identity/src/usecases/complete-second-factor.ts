import { DomainError } from '@signet/kit';
import type { ClientInfo } from '../domain/audit.js';
import { challengeInvalid, challengeRequired } from '../domain/errors.js';
import { sha256 } from '../domain/secrets.js';
import { completeMfaLogin } from './complete-mfa-login.js';
import type { IssuedSession } from './issue-session.js';
import { recordAudit } from './record-audit.js';
import { useRecoveryCode } from './use-recovery-code.js';
import type { SecurityDeps } from './security-deps.js';

export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery_code'; code: string };

/**
 * The second step of a sign-in with a TOTP code or a recovery code, audited on the account the
 * challenge was issued to: success with its method, a wrong code as a failure (never the code).
 */
export async function completeSecondFactor(
  deps: SecurityDeps,
  input: { challenge: string; factor: SecondFactor; client: ClientInfo },
): Promise<IssuedSession> {
  if (!input.challenge) throw challengeRequired();
  const userId = await deps.mfaChallenges.userId(sha256(input.challenge));
  const user = userId ? await deps.users.byId(userId) : null;
  if (!user) throw challengeInvalid();
  const method = input.factor.kind;
  try {
    const session =
      input.factor.kind === 'totp'
        ? await completeMfaLogin(deps, { challenge: input.challenge, code: input.factor.code })
        : await useRecoveryCode(deps, { challenge: input.challenge, code: input.factor.code });
    await recordAudit(deps, user, 'auth.login.succeeded', input.client, { details: { method } });
    return session;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'unauthenticated')
      await recordAudit(deps, user, 'auth.login.failed', input.client, { details: { method, reason: 'wrong_code' } });
    throw err;
  }
}
