import { accountHandlers } from './grpc/account.handler.js';
import { apiKeyHandlers } from './grpc/api-keys.handler.js';
import { authHandlers } from './grpc/auth.handler.js';
import { memberHandlers } from './grpc/members.handler.js';
import { passwordHandlers } from './grpc/password.handler.js';
import { signupHandlers } from './grpc/signup.handler.js';
import { twoFactorHandlers } from './grpc/two-factor.handler.js';
import type { IdentityDeps } from './usecases/deps.js';

export type IdentityHandlers = ReturnType<typeof authHandlers> &
  ReturnType<typeof signupHandlers> &
  ReturnType<typeof accountHandlers> &
  ReturnType<typeof passwordHandlers> &
  ReturnType<typeof twoFactorHandlers> &
  ReturnType<typeof apiKeyHandlers> &
  ReturnType<typeof memberHandlers>;

/**
 * Every RPC of `signet.identity.v1.IdentityService`, by flow. No side effects: the caller (app.ts)
 * opens the connections and registers the result with the gRPC server.
 */
export function identityHandlers(deps: IdentityDeps): IdentityHandlers {
  return {
    ...authHandlers(deps),
    ...signupHandlers(deps),
    ...accountHandlers(deps),
    ...passwordHandlers(deps),
    ...twoFactorHandlers(deps),
    ...apiKeyHandlers(deps),
    ...memberHandlers(deps),
  };
}
