import type { identityV1 } from '@signet/proto';
import { checkEmail } from '../usecases/check-email.js';
import { completeOnboarding } from '../usecases/complete-onboarding.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { registerAccount } from '../usecases/register-account.js';
import { sendSignupCode } from '../usecases/send-signup-code.js';
import { verifyEmail } from '../usecases/verify-email.js';
import { sessionOut } from './mappers.js';

/** Sign-up: CheckEmail, Register, SendSignupCode, VerifyEmail, CompleteOnboarding. */
export function signupHandlers(deps: IdentityDeps) {
  return {
    async checkEmail(req: identityV1.CheckEmailRequest): Promise<identityV1.CheckEmailResponse> {
      return { exists: await checkEmail(deps, req.email) };
    },

    async register(req: identityV1.RegisterRequest): Promise<identityV1.RegisterResponse> {
      const expires = await registerAccount(deps, { email: req.email, password: req.password, name: req.name });
      return { codeExpiresAt: expires.toISOString() };
    },

    async sendSignupCode(req: identityV1.SendSignupCodeRequest): Promise<identityV1.SendSignupCodeResponse> {
      return { codeExpiresAt: (await sendSignupCode(deps, req.email)).toISOString() };
    },

    async verifyEmail(req: identityV1.VerifyEmailRequest): Promise<identityV1.VerifyEmailResponse> {
      return { onboardingToken: await verifyEmail(deps, { email: req.email, code: req.code }) };
    },

    async completeOnboarding(req: identityV1.CompleteOnboardingRequest): Promise<identityV1.Session> {
      return sessionOut(await completeOnboarding(deps, { onboardingToken: req.onboardingToken, orgName: req.orgName }));
    },
  };
}
