import { badCode } from '../domain/errors.js';
import { burnsCode, liveCodeHash, onboardingExpiry } from '../domain/codes.js';
import { codeHash, newOpaqueToken, sameHash, sha256 } from '../domain/secrets.js';
import { checkCode, normEmail } from '../domain/validate.js';
import type { SignupRepository } from '../store/signup.repository.js';
import type { IdentityDeps } from './deps.js';

/**
 * Checks the mailed sign-up code. A wrong code counts a try and the fifth burns it; the right one is
 * spent and exchanged for a one-time onboarding token (stored hashed, good for an hour).
 */
export async function verifyEmail(
  deps: Pick<IdentityDeps, 'metrics' | 'now'> & {
    signups: Pick<SignupRepository, 'byEmail' | 'countWrongCode' | 'burnCode' | 'markVerified'>;
  },
  input: { email: string; code: string },
): Promise<string> {
  const email = normEmail(input.email);
  const code = checkCode(input.code);
  const intent = await deps.signups.byEmail(email);
  const stored = intent && liveCodeHash({ hash: intent.code_hash, expiresAt: intent.code_expires_at }, deps.now());
  if (!stored) {
    deps.metrics.codes.inc({ purpose: 'signup', result: 'expired' });
    throw badCode();
  }
  if (!sameHash(stored, codeHash('signup', email, code))) {
    const attempts = await deps.signups.countWrongCode(email, stored);
    if (attempts !== null && burnsCode(attempts)) await deps.signups.burnCode(email, stored);
    deps.metrics.codes.inc({ purpose: 'signup', result: 'wrong' });
    throw badCode();
  }
  const token = newOpaqueToken();
  if (!(await deps.signups.markVerified(email, stored, sha256(token), onboardingExpiry(deps.now())))) throw badCode();
  deps.metrics.codes.inc({ purpose: 'signup', result: 'ok' });
  deps.metrics.signups.inc({ step: 'verified' });
  return token;
}
