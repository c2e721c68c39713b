import QRCode from 'qrcode';
import { totpAlreadyOn } from '../domain/errors.js';
import { TOTP_ISSUER, newTotpSecret, otpauthUri } from '../domain/totp.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { getUser } from './get-user.js';

export type TotpSetup = { secret: string; otpauthUri: string; qrDataUrl: string };

/**
 * A new TOTP secret, kept sealed as pending until a code from it is shown (enable-totp); the secret
 * is returned once, with its otpauth URI and that URI as a QR code for authenticator apps.
 */
export async function setupTotp(
  deps: Pick<IdentityDeps, 'box'> & { users: Pick<UserRepository, 'byId' | 'setPendingTotp'> },
  userId: string,
): Promise<TotpSetup> {
  const user = await getUser(deps, userId);
  if (user.totp_enabled) throw totpAlreadyOn();
  const secret = newTotpSecret();
  await deps.users.setPendingTotp(user._id, deps.box.seal(secret, user._id));
  const uri = otpauthUri(secret, user.email, TOTP_ISSUER);
  return {
    secret,
    otpauthUri: uri,
    qrDataUrl: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 }),
  };
}
