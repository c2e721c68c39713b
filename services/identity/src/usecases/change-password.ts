import { currentPasswordWrong, passwordChangedMeanwhile } from '../domain/errors.js';
import { checkPassword } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';
import { issueSession, type IssuedSession } from './issue-session.js';

/** A new password given the current one; every older session ends, the caller gets a new one. */
export async function changePassword(
  deps: Pick<IdentityDeps, 'passwords' | 'sessions' | 'defaultSessionTtlHours' | 'now'> & {
    users: Pick<UserRepository, 'byId' | 'setPassword'>;
  },
  input: { userId: string; currentPassword: string; newPassword: string },
): Promise<IssuedSession> {
  const next = checkPassword(input.newPassword, 'new_password');
  const user = await getUser(deps, input.userId);
  if (!(await deps.passwords.verify(user.password_hash, input.currentPassword))) throw currentPasswordWrong();
  const updated = await deps.users.setPassword(user._id, await deps.passwords.hash(next), user.password_version);
  if (!updated) throw passwordChangedMeanwhile();
  return issueSession(deps, updated);
}
