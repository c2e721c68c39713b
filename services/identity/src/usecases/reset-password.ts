import { badCode } from '../domain/errors.js';
import { burnsCode, liveCodeHash } from '../domain/codes.js';
import { codeHash, sameHash } from '../domain/secrets.js';
import { checkCode, checkPassword, normEmail } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';

/**
 * A new password for the mailed reset code. A wrong code counts a try and the fifth burns it; the
 * right one sets the password, which spends the code and ends every older session. Returns the user id.
 */
export async function resetPassword(
  deps: Pick<IdentityDeps, 'passwords' | 'metrics' | 'now'> & {
    users: Pick<UserRepository, 'byEmail' | 'countWrongResetCode' | 'burnResetCode' | 'setPassword'>;
  },
  input: { email: string; code: string; newPassword: string },
): Promise<string> {
  const email = normEmail(input.email);
  const code = checkCode(input.code);
  const next = checkPassword(input.newPassword, 'new_password');
  const user = await deps.users.byEmail(email);
  const stored = user && liveCodeHash({ hash: user.reset_code_hash, expiresAt: user.reset_code_expires_at }, deps.now());
  if (!user || !stored) {
    deps.metrics.codes.inc({ purpose: 'reset', result: 'expired' });
    throw badCode();
  }
  if (!sameHash(stored, codeHash('reset', email, code))) {
    const attempts = await deps.users.countWrongResetCode(user._id, stored);
    if (attempts !== null && burnsCode(attempts)) await deps.users.burnResetCode(user._id, stored);
    deps.metrics.codes.inc({ purpose: 'reset', result: 'wrong' });
    throw badCode();
  }
  const updated = await deps.users.setPassword(user._id, await deps.passwords.hash(next), user.password_version);
  if (!updated) throw badCode();
  deps.metrics.codes.inc({ purpose: 'reset', result: 'ok' });
  return user._id;
}
