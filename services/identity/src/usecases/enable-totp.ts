import { badCode, totpAlreadyOn, totpNotSetUp } from '../domain/errors.js';
import { matchStep } from '../domain/totp.js';
import { checkCode } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

/** Turns two-factor on with a code from the pending secret; the code's step is recorded as used. */
export async function enableTotp(
  deps: Pick<IdentityDeps, 'box' | 'metrics' | 'now'> & { users: Pick<UserRepository, 'byId' | 'enableTotp'> },
  input: { userId: string; code: string },
): Promise<void> {
  const code = checkCode(input.code);
  const user = await getUser(deps, input.userId);
  if (user.totp_enabled) throw totpAlreadyOn();
  if (!user.totp_pending_secret) throw totpNotSetUp();
  const step = matchStep(deps.box.open(user.totp_pending_secret, user._id), code, deps.now());
  if (step === null) throw badCode();
  if (!(await deps.users.enableTotp(user._id, user.totp_pending_secret, step))) throw totpNotSetUp();
  deps.metrics.totp.inc({ action: 'enabled' });
}
