import type { ceremonyV1 } from '@signet/proto';
import type { CeremonyDeps } from '../usecases/deps.js';
import { getWebauthnOptions } from '../usecases/get-webauthn-options.js';
import { verifyWebauthn } from '../usecases/verify-webauthn.js';

/** GetWebauthnOptions and VerifyWebauthn (the optional WebAuthn step). */
export function webauthnHandlers(deps: CeremonyDeps) {
  return {
    async getWebauthnOptions(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.WebauthnOptions> {
      const { kind, options } = await getWebauthnOptions(deps, req.token);
      return { kind, optionsJson: JSON.stringify(options) };
    },

    async verifyWebauthn(req: ceremonyV1.WebauthnVerifyRequest): Promise<ceremonyV1.WebauthnResult> {
      return verifyWebauthn(deps, { token: req.token, responseJson: req.responseJson });
    },
  };
}
