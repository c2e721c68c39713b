import { challengeInvalid, challengeRequired, mfaCodeWrong } from '../domain/errors.js';
import { dropsChallenge } from '../domain/login-challenge.js';
import { sha256 } from '../domain/secrets.js';
import { checkCode } from '../domain/validate.js';
import type { MfaChallengeRepository } from '../store/mfa-challenge.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { issueSession, type IssuedSession } from './issue-session.js';
import { useTotpCode } from './use-totp-code.js';

/**
 * The second step of a two-factor login: the challenge and a TOTP code. A wrong code counts against
 * the challenge (the fifth drops it); the right one spends both the code's step and the challenge.
 */
export async function completeMfaLogin(
  deps: Pick<IdentityDeps, 'box' | 'sessions' | 'defaultSessionTtlHours' | 'metrics' | 'now'> & {
    users: Pick<UserRepository, 'byId' | 'useTotpStep'>;
    mfaChallenges: Pick<MfaChallengeRepository, 'userId' | 'countWrongCode' | 'remove'>;
  },
  input: { challenge: string; code: string },
): Promise<IssuedSession> {
  if (!input.challenge) throw challengeRequired();
  const code = checkCode(input.code);
  const id = sha256(input.challenge);
  const userId = await deps.mfaChallenges.userId(id);
  const user = userId ? await deps.users.byId(userId) : null;
  if (!user || !user.totp_enabled) {
    await deps.mfaChallenges.remove(id);
    deps.metrics.logins.inc({ result: 'mfa_challenge_invalid' });
    throw challengeInvalid();
  }
  if ((await useTotpCode(deps, user, user.totp_secret, code)) === null) {
    if (dropsChallenge(await deps.mfaChallenges.countWrongCode(id))) await deps.mfaChallenges.remove(id);
    deps.metrics.logins.inc({ result: 'mfa_wrong_code' });
    throw mfaCodeWrong();
  }
  // Single use: of two racing completions only the one that removes the challenge wins.
  if (!(await deps.mfaChallenges.remove(id))) throw challengeInvalid();
  deps.metrics.logins.inc({ result: 'ok' });
  return issueSession(deps, user);
}
