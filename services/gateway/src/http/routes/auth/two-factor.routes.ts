import type { GatewayContext } from '../../context.js';
import { callerOf } from '../../auth.js';
import { defineRoute, errorResponses } from '../../route.js';
import { schemas, totpSetup, twoFactor } from './auth.schemas.js';
import { type AuthKit } from './auth.shared.js';

/** Two-factor setup: TOTP secret, enable, disable. */
export function twoFactorRoutes(ctx: GatewayContext, { json, session, noStore, ok, sessionOp }: AuthKit) {
  const totp = defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/2fa/setup',
    operationId: 'setupTotp',
    summary: 'Start TOTP setup: a new secret, its otpauth:// URI and a QR code (PNG data URL)',
    description: 'Two-factor authentication is on only after POST /api/auth/2fa/enable with a valid code.',
    use: [session],
    responses: { 200: ok('Pending secret', totpSetup, noStore), ...errorResponses(400, 401, 409) },
    async handle(_input, _req, res) {
      const out = await ctx.identity.setupTotp({ userId: callerOf(res).userId });
      return { status: 200 as const, body: { secret: out.secret, otpauth_uri: out.otpauthUri, qr_data_url: out.qrDataUrl } };
    },
  });

  const enable = defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/2fa/enable',
    operationId: 'enableTotp',
    summary: 'Turn TOTP on with a code from the authenticator',
    use: [session, json],
    body: schemas.code,
    responses: { 200: ok('On', twoFactor, noStore), ...errorResponses(400, 401, 409) },
    async handle({ body: b }, _req, res) {
      await ctx.identity.enableTotp({ userId: callerOf(res).userId, code: b.code });
      return { status: 200 as const, body: { two_factor_enabled: true } };
    },
  });

  const disable = defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/2fa/disable',
    operationId: 'disableTotp',
    summary: 'Turn TOTP off; needs the password and a current code',
    use: [session, json],
    body: schemas.disable2fa,
    responses: { 200: ok('Off', twoFactor, noStore), ...errorResponses(400, 401, 403, 409) },
    async handle({ body: b }, _req, res) {
      await ctx.identity.disableTotp({ userId: callerOf(res).userId, password: b.password, code: b.code });
      return { status: 200 as const, body: { two_factor_enabled: false } };
    },
  });

  return [totp, enable, disable];
}
