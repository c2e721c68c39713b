import { matchStep } from '../domain/totp.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';

/**
 * The time step a TOTP code matches for this sealed secret, recorded as used so the code works
 * once; null when the code is wrong, already used, or there is no secret.
 */
export async function useTotpCode(
  deps: Pick<IdentityDeps, 'box' | 'now'> & { users: Pick<UserRepository, 'useTotpStep'> },
  user: UserRecord,
  sealed: string | null,
  code: string,
): Promise<number | null> {
  if (!sealed) return null;
  const step = matchStep(deps.box.open(sealed, user._id), code, deps.now());
  if (step === null) return null;
  return (await deps.users.useTotpStep(user._id, step)) ? step : null;
}
