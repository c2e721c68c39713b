import { challengeInvalid, mfaCodeWrong } from '../domain/errors.js';
import { dropsChallenge } from '../domain/login-challenge.js';
import { parseRecoveryCode } from '../domain/recovery-codes.js';
import { sha256 } from '../domain/secrets.js';
import { issueSession, type IssuedSession } from './issue-session.js';
import { secondFactorsOf } from './second-factors.js';
import type { SecurityDeps } from './security-deps.js';

/**
 * A recovery code instead of the second factor: its id finds one stored code of the challenge's
 * user, whose argon2id hash must match the secret; the code is then spent (of two racing uses one
 * wins) with the challenge. A wrong code counts against the challenge like a wrong TOTP code.
 */
export async function useRecoveryCode(deps: SecurityDeps, input: { challenge: string; code: string }): Promise<IssuedSession> {
  const id = sha256(input.challenge);
  const userId = await deps.mfaChallenges.userId(id);
  const user = userId ? await deps.users.byId(userId) : null;
  if (!user || !(await secondFactorsOf(deps, user)).includes('recovery_code')) {
    await deps.mfaChallenges.remove(id);
    throw challengeInvalid();
  }
  const parsed = parseRecoveryCode(input.code);
  const stored = parsed ? await deps.recoveryCodes.unused(user._id, parsed.id) : null;
  const ok = await deps.passwords.verify(stored?.hash, parsed?.secret ?? input.code);
  if (!parsed || !stored || !ok || !(await deps.recoveryCodes.spend(user._id, parsed.id, stored.hash, new Date(deps.now())))) {
    if (dropsChallenge(await deps.mfaChallenges.countWrongCode(id))) await deps.mfaChallenges.remove(id);
    deps.metrics.logins.inc({ result: 'mfa_wrong_code' });
    deps.securityMetrics.recoveryCodes.inc({ action: 'use', result: 'wrong' });
    throw mfaCodeWrong();
  }
  if (!(await deps.mfaChallenges.remove(id))) throw challengeInvalid();
  deps.metrics.logins.inc({ result: 'ok' });
  deps.securityMetrics.recoveryCodes.inc({ action: 'use', result: 'ok' });
  return issueSession(deps, user);
}
