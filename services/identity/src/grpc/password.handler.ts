import type { identityV1 } from '@signet/proto';
import { changePassword } from '../usecases/change-password.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { resetPassword } from '../usecases/reset-password.js';
import { sendResetCode } from '../usecases/send-reset-code.js';
import { sessionOut } from './mappers.js';

/** Passwords: ChangePassword (signed in), SendResetCode and ResetPassword (by mailed code). */
export function passwordHandlers(deps: IdentityDeps) {
  return {
    async changePassword(req: identityV1.ChangePasswordRequest): Promise<identityV1.Session> {
      const input = { userId: req.userId, currentPassword: req.currentPassword, newPassword: req.newPassword };
      return sessionOut(await changePassword(deps, input));
    },

    async sendResetCode(req: identityV1.SendResetCodeRequest): Promise<identityV1.SendResetCodeResponse> {
      await sendResetCode(deps, req.email);
      return {};
    },

    async resetPassword(req: identityV1.ResetPasswordRequest): Promise<identityV1.ResetPasswordResponse> {
      return { userId: await resetPassword(deps, { email: req.email, code: req.code, newPassword: req.newPassword }) };
    },
  };
}
