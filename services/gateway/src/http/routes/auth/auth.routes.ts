import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../../context.js';
import { mountRoutes } from '../../route.js';
import { authKit } from './auth.shared.js';
import { resetRoutes } from './reset.routes.js';
import { sessionRoutes } from './session.routes.js';
import { signupRoutes } from './signup.routes.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import { passkeyRoutes } from './passkey.routes.js';

/** /api/auth/*: sign-up, login (with TOTP), profile, password change and reset, two-factor setup. */
export function authRoutes(ctx: GatewayContext): RouteModule {
  const kit = authKit(ctx);
  const routes = [
    ...signupRoutes(ctx, kit),
    ...sessionRoutes(ctx, kit),
    ...twoFactorRoutes(ctx, kit),
    ...resetRoutes(ctx, kit),
    ...passkeyRoutes(ctx, kit),
  ];
  const r = Router();
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}
