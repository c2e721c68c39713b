import express, { Router, type RequestHandler, type Response } from 'express';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { parseBody } from '../../parse-body.js';
import { AUTH_LIMITS, rateLimit, type RateLimitRule } from '../../rate-limit.js';
import { authOpenapi } from './auth.openapi.js';
import { schemas } from './auth.schemas.js';

const loginResult = (s: identityV1.Session) => ({ token: s.token, email: s.email, org_name: s.orgName, expires_at: s.expiresAt });

/** Plan fields come from billing when it answers; the profile never fails because billing is down. */
async function planOf(ctx: GatewayContext, userId: string) {
  try {
    const a = await ctx.billing.getAccount({ userId }, { deadlineMs: 1500 });
    return {
      plan: a.plan,
      monthly_limit: a.monthlyLimit,
      monthly_used: a.monthlyUsed,
      signature_credits: a.signatureCredits,
      past_due: a.pastDue,
    };
  } catch {
    return {};
  }
}

/** /api/auth/*: sign-up, login (with TOTP), profile, password change and reset, two-factor setup. */
export function authRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  // The limiter runs before the body is parsed, so malformed requests count too.
  const json = express.json({ limit: '16kb' });
  const limit = (rule: RateLimitRule): RequestHandler => {
    const limiter = rateLimit(ctx, rule);
    return (req, res, next) => {
      limiter(req, res, (err?: unknown) => (err ? next(err) : json(req, res, next))).catch(next);
    };
  };
  const session = requireCaller(ctx, { allowApiKey: false });
  const accepted = (res: Response, body: object) => res.status(202).json(body);

  r.post('/api/auth/register', limit(AUTH_LIMITS.register), async (req, res) => {
    const b = parseBody(schemas.register, req.body);
    const out = await ctx.identity.register({ email: b.email, password: b.password, name: b.name });
    accepted(res, { status: 'code_sent', email: b.email, code_expires_at: out.codeExpiresAt });
  });

  r.post('/api/auth/send-code', limit(AUTH_LIMITS.sendCode), async (req, res) => {
    const b = parseBody(schemas.email, req.body);
    const out = await ctx.identity.sendSignupCode({ email: b.email });
    accepted(res, { status: 'code_sent', email: b.email, code_expires_at: out.codeExpiresAt });
  });

  r.post('/api/auth/verify-email', limit(AUTH_LIMITS.verifyEmail), async (req, res) => {
    const b = parseBody(schemas.verifyEmail, req.body);
    const out = await ctx.identity.verifyEmail({ email: b.email, code: b.code });
    res.json({ verified: true, email: b.email, onboarding_token: out.onboardingToken });
  });

  r.post('/api/auth/onboarding', json, async (req, res) => {
    const b = parseBody(schemas.onboarding, req.body);
    const s = await ctx.identity.completeOnboarding({ onboardingToken: b.onboarding_token, orgName: b.org_name });
    res.status(201).json(loginResult(s));
  });

  r.post('/api/auth/check-email', limit(AUTH_LIMITS.checkEmail), async (req, res) => {
    const b = parseBody(schemas.email, req.body);
    const out = await ctx.identity.checkEmail({ email: b.email });
    res.json({ email: b.email, exists: out.exists });
  });

  r.post('/api/auth/login', limit(AUTH_LIMITS.login), async (req, res) => {
    const b = parseBody(schemas.login, req.body);
    const out = await ctx.identity.login({ email: b.email, password: b.password });
    if (out.result?.$case === 'mfa') {
      res.json({ mfa_required: true, challenge: out.result.value.challenge, expires_at: out.result.value.expiresAt });
      return;
    }
    if (out.result?.$case !== 'session') throw new Error('identity returned no login result');
    res.json(loginResult(out.result.value));
  });

  r.post('/api/auth/2fa/login', json, async (req, res) => {
    const b = parseBody(schemas.mfaLogin, req.body);
    res.json(loginResult(await ctx.identity.completeMfaLogin({ challenge: b.challenge, code: b.code })));
  });

  // The profile accepts an API key too: integrations use it to check which account a key belongs to.
  r.post('/api/auth/me', requireCaller(ctx), async (_req, res) => {
    const caller = callerOf(res);
    const [p, plan] = await Promise.all([ctx.identity.getProfile({ userId: caller.userId }), planOf(ctx, caller.userId)]);
    res.json({
      user_id: p.userId,
      email: p.email,
      name: p.name,
      org_name: p.orgName,
      two_factor_enabled: p.twoFactorEnabled,
      session_ttl_hours: p.sessionTtlHours,
      created_at: p.createdAt,
      auth_method: caller.method,
      ...plan,
    });
  });

  r.post('/api/auth/change-password', session, json, async (req, res) => {
    const b = parseBody(schemas.changePassword, req.body);
    const s = await ctx.identity.changePassword({
      userId: callerOf(res).userId,
      currentPassword: b.current_password,
      newPassword: b.new_password,
    });
    await invalidateCredentials(ctx);
    res.json(loginResult(s));
  });

  r.post('/api/auth/2fa/setup', session, async (_req, res) => {
    const out = await ctx.identity.setupTotp({ userId: callerOf(res).userId });
    res.json({ secret: out.secret, otpauth_uri: out.otpauthUri, qr_data_url: out.qrDataUrl });
  });

  r.post('/api/auth/2fa/enable', session, json, async (req, res) => {
    const b = parseBody(schemas.code, req.body);
    await ctx.identity.enableTotp({ userId: callerOf(res).userId, code: b.code });
    res.json({ two_factor_enabled: true });
  });

  r.post('/api/auth/2fa/disable', session, json, async (req, res) => {
    const b = parseBody(schemas.disable2fa, req.body);
    await ctx.identity.disableTotp({ userId: callerOf(res).userId, password: b.password, code: b.code });
    res.json({ two_factor_enabled: false });
  });

  r.post('/api/auth/send-reset-code', limit(AUTH_LIMITS.sendResetCode), async (req, res) => {
    const b = parseBody(schemas.email, req.body);
    await ctx.identity.sendResetCode({ email: b.email });
    accepted(res, { status: 'sent_if_registered', detail: 'if an account exists for this email, a reset code is on its way' });
  });

  r.post('/api/auth/reset-password-code', limit(AUTH_LIMITS.resetPasswordCode), async (req, res) => {
    const b = parseBody(schemas.resetPassword, req.body);
    await ctx.identity.resetPassword({ email: b.email, code: b.code, newPassword: b.new_password });
    await invalidateCredentials(ctx);
    res.json({ status: 'password_reset' });
  });

  return { router: r, openapi: authOpenapi() };
}
