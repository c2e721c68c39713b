import type { identityV1 } from '@signet/proto';
import { noCredential } from '../domain/errors.js';
import { authenticateApiKey, authenticateSession } from '../usecases/authenticate.js';
import { completeMfaLogin } from '../usecases/complete-mfa-login.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { logIn } from '../usecases/log-in.js';
import { principalOut, sessionOut } from './mappers.js';

/** Authenticate (API key or session JWT), Login and CompleteMfaLogin. */
export function authHandlers(deps: IdentityDeps) {
  return {
    async authenticate(req: identityV1.AuthenticateRequest): Promise<identityV1.AuthenticateResponse> {
      const cred = req.credential;
      if (cred?.$case === 'apiKey') return principalOut(await authenticateApiKey(deps, cred.value));
      if (cred?.$case === 'sessionToken') return principalOut(await authenticateSession(deps, cred.value));
      throw noCredential();
    },

    async login(req: identityV1.LoginRequest): Promise<identityV1.LoginResponse> {
      const r = await logIn(deps, { email: req.email, password: req.password });
      return r.kind === 'mfa'
        ? { result: { $case: 'mfa', value: { challenge: r.challenge, expiresAt: r.expiresAt.toISOString() } } }
        : { result: { $case: 'session', value: sessionOut(r.session) } };
    },

    async completeMfaLogin(req: identityV1.CompleteMfaLoginRequest): Promise<identityV1.Session> {
      return sessionOut(await completeMfaLogin(deps, { challenge: req.challenge, code: req.code }));
    },
  };
}
