import type { GatewayContext } from '../../context.js';
import { AUTH_LIMITS } from '../../rate-limit.js';
import { defineRoute, errorResponses } from '../../route.js';
import { codeSent, emailExists, loginResult, schemas, verified } from './auth.schemas.js';
import { type AuthKit, sessionJson, limited } from './auth.shared.js';

/** Sign-up: register, e-mail code, verification, onboarding, e-mail check. */
export function signupRoutes(ctx: GatewayContext, { json, limit, ok, publicOp }: AuthKit) {
  const register = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/register',
    operationId: 'register',
    summary: 'Create a signup intent and mail a 6-digit verification code (valid 10 minutes)',
    extensions: limited(AUTH_LIMITS.register),
    use: [limit(AUTH_LIMITS.register)],
    body: schemas.register,
    responses: { 202: ok('Code mailed', codeSent), ...errorResponses(400, 409, 429) },
    async handle({ body: b }) {
      const out = await ctx.identity.register({ email: b.email, password: b.password, name: b.name });
      return { status: 202 as const, body: { status: 'code_sent' as const, email: b.email, code_expires_at: out.codeExpiresAt } };
    },
  });

  const sendCode = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/send-code',
    operationId: 'sendSignupCode',
    summary: 'Mail a fresh verification code for a pending sign-up',
    extensions: limited(AUTH_LIMITS.sendCode),
    use: [limit(AUTH_LIMITS.sendCode)],
    body: schemas.email,
    responses: { 202: ok('Code mailed', codeSent), ...errorResponses(400, 404, 409, 429) },
    async handle({ body: b }) {
      const out = await ctx.identity.sendSignupCode({ email: b.email });
      return { status: 202 as const, body: { status: 'code_sent' as const, email: b.email, code_expires_at: out.codeExpiresAt } };
    },
  });

  const verifyEmail = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/verify-email',
    operationId: 'verifyEmail',
    summary: 'Verify the emailed code; five wrong codes burn it',
    description: 'Returns a one-time onboarding token (valid 1 hour) for POST /api/auth/onboarding.',
    extensions: limited(AUTH_LIMITS.verifyEmail),
    use: [limit(AUTH_LIMITS.verifyEmail)],
    body: schemas.verifyEmail,
    responses: { 200: ok('Email verified', verified), ...errorResponses(400, 429) },
    async handle({ body: b }) {
      const out = await ctx.identity.verifyEmail({ email: b.email, code: b.code });
      return { status: 200 as const, body: { verified: true, email: b.email, onboarding_token: out.onboardingToken } };
    },
  });

  const onboarding = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/onboarding',
    operationId: 'completeOnboarding',
    summary: 'Complete onboarding: create the account with its organisation name and sign in',
    description: 'org_name becomes issuer_name on certificates.',
    use: [json],
    body: schemas.onboarding,
    responses: { 201: ok('Account created; a session', loginResult), ...errorResponses(400, 401, 409) },
    async handle({ body: b }) {
      const s = await ctx.identity.completeOnboarding({ onboardingToken: b.onboarding_token, orgName: b.org_name });
      return { status: 201 as const, body: sessionJson(s) };
    },
  });

  const checkEmail = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/check-email',
    operationId: 'checkEmail',
    summary: 'Whether an email already has an account',
    extensions: limited(AUTH_LIMITS.checkEmail),
    use: [limit(AUTH_LIMITS.checkEmail)],
    body: schemas.email,
    responses: { 200: ok('Answer', emailExists), ...errorResponses(400, 429) },
    async handle({ body: b }) {
      const out = await ctx.identity.checkEmail({ email: b.email });
      return { status: 200 as const, body: { email: b.email, exists: out.exists } };
    },
  });

  return [register, sendCode, verifyEmail, onboarding, checkEmail];
}
