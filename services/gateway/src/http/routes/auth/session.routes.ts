import type { GatewayContext } from '../../context.js';
import { callerOf, invalidateCredentials, requireCaller } from '../../auth.js';
import { AUTH_LIMITS } from '../../rate-limit.js';
import { defineRoute, errorResponses } from '../../route.js';
import { loginResult, mfaChallenge, profile, schemas } from './auth.schemas.js';
import { type AuthKit, sessionJson, planOf, limited, TAGS } from './auth.shared.js';
import { lifecycleOf } from '../admin/lifecycle-settings.js';
import { clientInfo } from './client-info.js';

/** Login (with TOTP), the profile, password change. */
export function sessionRoutes(ctx: GatewayContext, { json, limit, session, noStore, ok, publicOp, sessionOp }: AuthKit) {
  // The profile accepts an API key too: integrations use it to check which account a key belongs to.

  return [
    loginRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    mfaLoginRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    meRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
    changePasswordRoute(ctx, { json, limit, session, noStore, ok, publicOp, sessionOp }),
  ];
}

function loginRoute(ctx: GatewayContext, { limit, noStore, ok, publicOp }: AuthKit) {
  return defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with email and password',
    description:
      'Returns a session token, or — when the account has a second factor (TOTP or a passkey) — `{mfa_required: true, challenge, methods}`; complete it at /api/auth/2fa/login (TOTP or recovery code) or /api/auth/passkey/login. Unknown email and wrong password get the same 401. Sign-ins and failures go to the account audit log.',
    extensions: limited(AUTH_LIMITS.login),
    use: [limit(AUTH_LIMITS.login)],
    body: schemas.login,
    responses: {
      200: ok('A session, or a two-factor challenge', loginResult.or(mfaChallenge), noStore),
      ...errorResponses(400, 401, 429),
    },
    async handle({ body: b }, req, res) {
      const out = await ctx.security.passwordLogin({ email: b.email, password: b.password, client: clientInfo(req) });
      res.setHeader('Cache-Control', 'no-store');
      if (out.result?.$case === 'secondFactor') {
        const v = out.result.value;
        const methods = v.methods as ('totp' | 'passkey' | 'recovery_code')[];
        return {
          status: 200 as const,
          body: { mfa_required: true as const, challenge: v.challenge, expires_at: v.expiresAt, methods },
        };
      }
      if (out.result?.$case !== 'session') throw new Error('identity returned no login result');
      return { status: 200 as const, body: sessionJson(out.result.value) };
    },
  });
}

function mfaLoginRoute(ctx: GatewayContext, { json, noStore, ok, publicOp }: AuthKit) {
  return defineRoute({
    ...publicOp,
    method: 'post',
    path: '/api/auth/2fa/login',
    operationId: 'completeMfaLogin',
    summary: 'Complete a two-factor login with the challenge and a TOTP code or a recovery code',
    description: 'Each code is accepted once; five wrong codes end the challenge. A recovery code is spent by its use.',
    use: [json],
    body: schemas.mfaLogin,
    responses: { 200: ok('A session', loginResult, noStore), ...errorResponses(400, 401) },
    async handle({ body: b }, req, res) {
      const factor =
        b.recovery_code !== undefined
          ? { $case: 'recoveryCode' as const, value: b.recovery_code }
          : { $case: 'totpCode' as const, value: b.code ?? '' };
      const s = await ctx.security.completeSecondFactor({ challenge: b.challenge, factor, client: clientInfo(req) });
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200 as const, body: sessionJson(s) };
    },
  });
}

function meRoute(ctx: GatewayContext, { noStore, ok }: AuthKit) {
  return defineRoute({
    tags: TAGS,
    security: 'caller',
    method: 'post',
    path: '/api/auth/me',
    operationId: 'getProfile',
    role: 'viewer',
    summary: 'The current user profile (session JWT or API key)',
    description: 'Plan fields come from billing and are omitted when it does not answer.',
    use: [requireCaller(ctx)],
    responses: { 200: ok('Profile', profile, noStore), ...errorResponses(400, 401) },
    async handle(_input, _req, res) {
      const caller = callerOf(res);
      const [p, plan] = await Promise.all([ctx.identity.getProfile({ userId: caller.userId }), planOf(ctx, caller.ownerId)]);
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
          ...lifecycleOf(p),
          created_at: p.createdAt,
          auth_method: caller.method,
          organisation_id: caller.ownerId,
          role: caller.role,
          ...(caller.method === 'api_key' ? { scopes: caller.scopes } : {}),
          ...plan,
        },
      };
    },
  });
}

function changePasswordRoute(ctx: GatewayContext, { json, session, noStore, ok, sessionOp }: AuthKit) {
  return defineRoute({
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
}
