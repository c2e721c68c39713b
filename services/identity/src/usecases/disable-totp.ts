import { passwordOrCodeWrong, totpOff } from '../domain/errors.js';
import { checkCode } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';
import { useTotpCode } from './use-totp-code.js';

/** Turns two-factor off; needs both the password and a current, unused code. */
export async function disableTotp(
  deps: Pick<IdentityDeps, 'box' | 'passwords' | 'metrics' | 'now'> & {
    users: Pick<UserRepository, 'byId' | 'useTotpStep' | 'disableTotp'>;
  },
  input: { userId: string; password: string; code: string },
): Promise<void> {
  const code = checkCode(input.code);
  const user = await getUser(deps, input.userId);
  if (!user.totp_enabled) throw totpOff();
  const passwordOk = await deps.passwords.verify(user.password_hash, input.password);
  if (!passwordOk || (await useTotpCode(deps, user, user.totp_secret, code)) === null) throw passwordOrCodeWrong();
  await deps.users.disableTotp(user._id);
  deps.metrics.totp.inc({ action: 'disabled' });
}
