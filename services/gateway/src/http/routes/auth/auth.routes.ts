import express, { Router, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { AUTH_LIMITS, rateLimit, type RateLimitRule } from '../../rate-limit.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes, type ResponseSpec } from '../../route.js';
import {
  codeSent,
  emailExists,
  loginResult,
  mfaChallenge,
  passwordReset,
  profile,
  resetSent,
  schemas,
  totpSetup,
  twoFactor,
  verified,
} from './auth.schemas.js';

const TAGS = ['Authentication'];

const sessionJson = (s: identityV1.Session): z.input<typeof loginResult> => ({
  token: s.token,
  email: s.email,
  org_name: s.orgName,
  expires_at: s.expiresAt,
});

/** Plan fields come from billing when it answers; the profile never fails because billing is down. */
async function planOf(ctx: GatewayContext, userId: string) {
  try {
    const a = await ctx.billing.getAccount({ userId }, { deadlineMs: 1500 });
    return {
      plan: a.plan as 'Free' | 'Pro' | 'Firm',
      monthly_limit: a.monthlyLimit,
      monthly_used: a.monthlyUsed,
      signature_credits: a.signatureCredits,
      past_due: a.pastDue,
    };
  } catch {
    return {};
  }
}

/** `x-rate-limit` and the 429 of a rate-limited operation. */
const limited = (rule: RateLimitRule) => ({
  'x-rate-limit': `${rule.points} requests per ${rule.durationSec === 60 ? 'minute' : `${rule.durationSec / 60} minutes`} per client IP`,
});

/** /api/auth/*: sign-up, login (with TOTP), profile, password change and reset, two-factor setup. */
export function authRoutes(ctx: GatewayContext): RouteModule {
  // The limiter runs before the body is parsed, so malformed requests count too.
  const json = express.json({ limit: '16kb' });
  const limit = (rule: RateLimitRule): RequestHandler => {
    const limiter = rateLimit(ctx, rule);
    return (req, res, next) => {
      limiter(req, res, (err?: unknown) => (err ? next(err) : json(req, res, next))).catch(next);
    };
  };
  const session = requireCaller(ctx, { allowApiKey: false });
  const noStore = { 'Cache-Control': HEADERS.cacheControl };
  const ok = <B extends z.ZodType>(description: string, body: B, headers?: ResponseSpec['headers']) => ({
    description,
    body,
    ...(headers ? { headers } : {}),
  });
  const publicOp = { tags: TAGS, security: 'public' as const };
  const sessionOp = { tags: TAGS, security: 'session' as const };

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

  const login = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with email and password',
    description:
      'Returns a session token, or — when TOTP two-factor authentication is on — `{mfa_required: true, challenge}`; post the challenge and a TOTP code to /api/auth/2fa/login. Unknown email and wrong password get the same 401.',
    extensions: limited(AUTH_LIMITS.login),
    use: [limit(AUTH_LIMITS.login)],
    body: schemas.login,
    responses: {
      200: ok('A session, or a two-factor challenge', loginResult.or(mfaChallenge), noStore),
      ...errorResponses(400, 401, 429),
    },
    async handle({ body: b }, _req, res) {
      const out = await ctx.identity.login({ email: b.email, password: b.password });
      res.setHeader('Cache-Control', 'no-store');
      if (out.result?.$case === 'mfa')
        return {
          status: 200 as const,
          body: { mfa_required: true as const, challenge: out.result.value.challenge, expires_at: out.result.value.expiresAt },
        };
      if (out.result?.$case !== 'session') throw new Error('identity returned no login result');
      return { status: 200 as const, body: sessionJson(out.result.value) };
    },
  });

  const mfaLogin = defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/2fa/login',
    operationId: 'completeMfaLogin',
    summary: 'Complete a two-factor login with the challenge and a TOTP code',
    description: 'Each code is accepted once; five wrong codes end the challenge.',
    use: [json],
    body: schemas.mfaLogin,
    responses: { 200: ok('A session', loginResult, noStore), ...errorResponses(400, 401) },
    async handle({ body: b }, _req, res) {
      const s = await ctx.identity.completeMfaLogin({ challenge: b.challenge, code: b.code });
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200 as const, body: sessionJson(s) };
    },
  });

  // The profile accepts an API key too: integrations use it to check which account a key belongs to.
  const me = defineRoute({
    tags: TAGS,
    security: 'caller',
    method: 'post',
    path: '/api/auth/me',
    operationId: 'getProfile',
    summary: 'The current user profile (session JWT or API key)',
    description: 'Plan fields come from billing and are omitted when it does not answer.',
    use: [requireCaller(ctx)],
    responses: { 200: ok('Profile', profile, noStore), ...errorResponses(400, 401) },
    async handle(_input, _req, res) {
      const caller = callerOf(res);
      const [p, plan] = await Promise.all([ctx.identity.getProfile({ userId: caller.userId }), planOf(ctx, caller.userId)]);
      return {
        status: 200 as const,
        body: {
          user_id: p.userId,
          email: p.email,
          name: p.name,
          org_name: p.orgName,
          two_factor_enabled: p.twoFactorEnabled,
          session_ttl_hours: p.sessionTtlHours,
          biometric_retention_days: p.biometricRetentionDays,
          created_at: p.createdAt,
          auth_method: caller.method,
          ...plan,
        },
      };
    },
  });

  const changePassword = defineRoute({
    ...sessionOp,
    method: 'post',
    path: '/api/auth/change-password',
    operationId: 'changePassword',
    summary: 'Change the password; every older session stops working and a new session is returned',
    use: [session, json],
    body: schemas.changePassword,
    responses: { 200: ok('A new session', loginResult, noStore), ...errorResponses(400, 401, 403) },
    async handle({ body: b }, _req, res) {
      const s = await ctx.identity.changePassword({
        userId: callerOf(res).userId,
        currentPassword: b.current_password,
        newPassword: b.new_password,
      });
      await invalidateCredentials(ctx);
      return { status: 200 as const, body: sessionJson(s) };
    },
  });

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

  const routes = [
    register,
    sendCode,
    verifyEmail,
    onboarding,
    checkEmail,
    login,
    mfaLogin,
    me,
    changePassword,
    totp,
    enable,
    disable,
    sendResetCode,
    resetPassword,
  ];
  const r = Router();
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}
