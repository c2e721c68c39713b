import type { identityV1 } from '@signet/proto';
import type { IdentityDeps } from '../usecases/deps.js';
import { disableTotp } from '../usecases/disable-totp.js';
import { enableTotp } from '../usecases/enable-totp.js';
import { setupTotp } from '../usecases/setup-totp.js';

/** Two-factor (TOTP): SetupTotp, EnableTotp, DisableTotp. */
export function twoFactorHandlers(deps: IdentityDeps) {
  return {
    async setupTotp(req: identityV1.SetupTotpRequest): Promise<identityV1.SetupTotpResponse> {
      return setupTotp(deps, req.userId);
    },

    async enableTotp(req: identityV1.EnableTotpRequest): Promise<identityV1.EnableTotpResponse> {
      await enableTotp(deps, { userId: req.userId, code: req.code });
      return {};
    },

    async disableTotp(req: identityV1.DisableTotpRequest): Promise<identityV1.DisableTotpResponse> {
      await disableTotp(deps, { userId: req.userId, password: req.password, code: req.code });
      return {};
    },
  };
}
