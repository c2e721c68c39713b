import type { GatewayContext } from '../../context.js';
import { invalidateCredentials } from '../../auth.js';
import { AUTH_LIMITS } from '../../rate-limit.js';
import { defineRoute, errorResponses } from '../../route.js';
import { passwordReset, resetSent, schemas } from './auth.schemas.js';
import { type AuthKit, limited } from './auth.shared.js';

/** Password reset by e-mailed code. */
export function resetRoutes(ctx: GatewayContext, { limit, ok, publicOp }: AuthKit) {
  const sendResetCode = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/send-reset-code',
    operationId: 'sendResetCode',
    summary: 'Mail a password-reset code (valid 10 minutes) if the email has an account',
    description: 'The answer is the same whether or not the email has an account.',
    extensions: limited(AUTH_LIMITS.sendResetCode),
    use: [limit(AUTH_LIMITS.sendResetCode)],
    body: schemas.email,
    responses: { 202: ok('Accepted', resetSent), ...errorResponses(400, 429) },
    async handle({ body: b }) {
      await ctx.identity.sendResetCode({ email: b.email });
      return {
        status: 202 as const,
        body: {
          status: 'sent_if_registered' as const,
          detail: 'if an account exists for this email, a reset code is on its way',
        },
      };
    },
  });

  const resetPassword = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/reset-password-code',
    operationId: 'resetPassword',
    summary: 'Set a new password with the mailed reset code; every older session stops working',
    description: 'An unknown email and a wrong code get the same 400; five wrong codes burn the code.',
    extensions: limited(AUTH_LIMITS.resetPasswordCode),
    use: [limit(AUTH_LIMITS.resetPasswordCode)],
    body: schemas.resetPassword,
    responses: { 200: ok('Password changed', passwordReset), ...errorResponses(400, 429) },
    async handle({ body: b }) {
      await ctx.identity.resetPassword({ email: b.email, code: b.code, newPassword: b.new_password });
      await invalidateCredentials(ctx);
      return { status: 200 as const, body: { status: 'password_reset' as const } };
    },
  });

  return [sendResetCode, resetPassword];
}
