import { userNotFound } from '../domain/errors.js';
import type { SecurityDeps } from './security-deps.js';

/** What protects the sign-in of a user: TOTP on or off, how many passkeys, how many recovery codes left. */
export async function getSecurityStatus(deps: Pick<SecurityDeps, 'users' | 'passkeys' | 'recoveryCodes'>, userId: string) {
  const user = await deps.users.byId(userId);
  if (!user) throw userNotFound();
  const [passkeys, recoveryCodesLeft] = await Promise.all([
    deps.passkeys.countOf(userId),
    deps.recoveryCodes.countUnused(userId),
  ]);
  return { totpEnabled: user.totp_enabled, passkeys, recoveryCodesLeft };
}
