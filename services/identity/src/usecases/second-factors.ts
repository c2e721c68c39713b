import type { PasskeyRepository } from '../store/passkey.repository.js';
import type { RecoveryCodeRepository } from '../store/recovery-code.repository.js';
import type { UserRecord } from '../store/user.repository.js';

/**
 * The second factors an account signs in with after its password: TOTP when on, passkey when it has
 * one, and then recovery codes when any is left. None: the password alone opens a session.
 * Recovery codes alone are a backup, not a second factor.
 */
export async function secondFactorsOf(
  deps: { passkeys: Pick<PasskeyRepository, 'countOf'>; recoveryCodes: Pick<RecoveryCodeRepository, 'countUnused'> },
  user: UserRecord,
): Promise<string[]> {
  const [passkeys, codes] = await Promise.all([deps.passkeys.countOf(user._id), deps.recoveryCodes.countUnused(user._id)]);
  const methods = [...(user.totp_enabled ? ['totp'] : []), ...(passkeys > 0 ? ['passkey'] : [])];
  return methods.length && codes > 0 ? [...methods, 'recovery_code'] : methods;
}
