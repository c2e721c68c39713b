import express, { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials, requireCaller } from '../auth.js';
import type { GatewayContext, RouteModule } from '../context.js';
import { badRequest } from '../errors.js';
import { AUTH_LIMITS, rateLimit, type RateLimitRule } from '../rate-limit.js';

/** Parses a JSON body with a zod object schema; the 400 detail names the first offending field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object (Content-Type: application/json)');
  }
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  const value = issue.path.reduce<unknown>(
    (o, k) => (o && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[k] : undefined),
    body,
  );
  if (value === undefined) throw badRequest(`${field} is required`);
  throw badRequest(`${field}: ${issue.message}`);
}

export const fields = {
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email('must be a valid email address')),
  /** New passwords: at least 10 characters. */
  newPassword: z.string().min(10, 'must be at least 10 characters').max(256, 'must be at most 256 characters'),
  /** A password being checked (login, confirmations): any non-empty string within the limit. */
  password: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be 6 digits'),
  token: z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
};

const schemas = {
  register: z.object({ email: fields.email, password: fields.newPassword, name: fields.name }),
  email: z.object({ email: fields.email }),
  verifyEmail: z.object({ email: fields.email, code: fields.code }),
  onboarding: z.object({ onboarding_token: fields.token, org_name: fields.name }),
  login: z.object({ email: fields.email, password: fields.password }),
  mfaLogin: z.object({ challenge: fields.token, code: fields.code }),
  changePassword: z.object({ current_password: fields.password, new_password: fields.newPassword }),
  code: z.object({ code: fields.code }),
  disable2fa: z.object({ password: fields.password, code: fields.code }),
  resetPassword: z.object({ email: fields.email, code: fields.code, new_password: fields.newPassword }),
};

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

// ---------------------------------------------------------------------------------------------
// OpenAPI

const str = (extra: Record<string, unknown> = {}) => ({ type: 'string', ...extra });
const EMAIL = str({ format: 'email', maxLength: 254 });
const NEW_PASSWORD = str({ minLength: 10, maxLength: 256 });
const PASSWORD = str({ minLength: 1, maxLength: 256 });
const CODE = str({ pattern: '^\\d{6}$', description: '6-digit code' });
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({ type: 'object', required, properties: props });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (description: string, schema: unknown) => ({ description, ...json(schema) });
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const limited = (rule: RateLimitRule) => ({
  'x-rate-limit': `${rule.points} requests per ${rule.durationSec === 60 ? 'minute' : `${rule.durationSec / 60} minutes`} per client IP`,
});
const LOGIN_RESULT = obj(
  { token: str({ description: 'Session JWT (HS256)' }), email: EMAIL, org_name: str(), expires_at: str({ format: 'date-time' }) },
  ['token', 'email', 'org_name'],
);
const SENT = obj({ status: str({ enum: ['code_sent'] }), email: EMAIL, code_expires_at: str({ format: 'date-time' }) });

function op(o: {
  summary: string;
  description?: string;
  security?: unknown[];
  body?: unknown;
  responses: Record<string, unknown>;
  rule?: RateLimitRule;
}) {
  return {
    post: {
      tags: ['auth'],
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      security: o.security ?? [],
      ...(o.body ? { requestBody: { required: true, ...json(o.body) } } : {}),
      ...(o.rule ? limited(o.rule) : {}),
      responses: { ...o.responses, '400': ref('BadRequest'), ...(o.rule ? { '429': ref('TooManyRequests') } : {}) },
    },
  };
}

function authOpenapi(): Record<string, unknown> {
  const jwt = [{ bearer: [] }];
  return {
    '/api/auth/register': op({
      summary: 'Create a signup intent and mail a 6-digit verification code (valid 10 minutes)',
      body: obj({ email: EMAIL, password: NEW_PASSWORD, name: str({ minLength: 1, maxLength: 200 }) }),
      rule: AUTH_LIMITS.register,
      responses: { '202': ok('Code mailed', SENT), '409': { description: 'The email already has an account' } },
    }),
    '/api/auth/send-code': op({
      summary: 'Mail a fresh verification code for a pending sign-up',
      body: obj({ email: EMAIL }),
      rule: AUTH_LIMITS.sendCode,
      responses: {
        '202': ok('Code mailed', SENT),
        '404': ref('NotFound'),
        '409': { description: 'The email already has an account' },
      },
    }),
    '/api/auth/verify-email': op({
      summary: 'Verify the emailed code; five wrong codes burn it',
      description: 'Returns a one-time onboarding token (valid 1 hour) for POST /api/auth/onboarding.',
      body: obj({ email: EMAIL, code: CODE }),
      rule: AUTH_LIMITS.verifyEmail,
      responses: { '200': ok('Email verified', obj({ verified: { type: 'boolean' }, email: EMAIL, onboarding_token: str() })) },
    }),
    '/api/auth/onboarding': op({
      summary: 'Complete onboarding: create the account with its organisation name and sign in',
      description: 'org_name becomes issuer_name on certificates.',
      body: obj({ onboarding_token: str(), org_name: str({ minLength: 1, maxLength: 200 }) }),
      responses: {
        '201': ok('Account created; a session', LOGIN_RESULT),
        '401': ref('Unauthorized'),
        '409': { description: 'The email already has an account' },
      },
    }),
    '/api/auth/check-email': op({
      summary: 'Whether an email already has an account',
      body: obj({ email: EMAIL }),
      rule: AUTH_LIMITS.checkEmail,
      responses: { '200': ok('Answer', obj({ email: EMAIL, exists: { type: 'boolean' } })) },
    }),
    '/api/auth/login': op({
      summary: 'Sign in with email and password',
      description:
        'Returns a session token, or — when TOTP two-factor authentication is on — `{mfa_required: true, challenge}`; post the challenge and a TOTP code to /api/auth/2fa/login. Unknown email and wrong password get the same 401.',
      body: obj({ email: EMAIL, password: PASSWORD }),
      rule: AUTH_LIMITS.login,
      responses: {
        '200': ok('A session, or a two-factor challenge (single use, valid 5 minutes)', {
          oneOf: [
            LOGIN_RESULT,
            obj({ mfa_required: { type: 'boolean', const: true }, challenge: str(), expires_at: str({ format: 'date-time' }) }),
          ],
        }),
        '401': ref('Unauthorized'),
      },
    }),
    '/api/auth/2fa/login': op({
      summary: 'Complete a two-factor login with the challenge and a TOTP code',
      description: 'Each code is accepted once; five wrong codes end the challenge.',
      body: obj({ challenge: str(), code: CODE }),
      responses: { '200': ok('A session', LOGIN_RESULT), '401': ref('Unauthorized') },
    }),
    '/api/auth/me': op({
      summary: 'The current user profile (session JWT or API key)',
      description: 'Plan fields come from billing and are omitted when it does not answer.',
      security: [{ bearer: [] }, { apiKey: [] }],
      responses: {
        '200': ok(
          'Profile',
          obj(
            {
              user_id: str(),
              email: EMAIL,
              name: str(),
              org_name: str(),
              two_factor_enabled: { type: 'boolean' },
              session_ttl_hours: { type: 'integer' },
              created_at: str({ format: 'date-time' }),
              auth_method: str({ enum: ['session', 'api_key'] }),
              plan: str({ enum: ['Free', 'Pro', 'Firm'] }),
              monthly_limit: { type: 'integer' },
              monthly_used: { type: 'integer' },
              signature_credits: { type: 'integer' },
              past_due: { type: 'boolean' },
            },
            ['user_id', 'email', 'name', 'org_name', 'two_factor_enabled'],
          ),
        ),
        '401': ref('Unauthorized'),
      },
    }),
    '/api/auth/change-password': op({
      summary: 'Change the password; every older session stops working and a new session is returned',
      security: jwt,
      body: obj({ current_password: PASSWORD, new_password: NEW_PASSWORD }),
      responses: {
        '200': ok('A new session', LOGIN_RESULT),
        '401': ref('Unauthorized'),
        '403': { description: 'current_password is wrong' },
      },
    }),
    '/api/auth/2fa/setup': op({
      summary: 'Start TOTP setup: a new secret, its otpauth:// URI and a QR code (PNG data URL)',
      description: 'Two-factor authentication is on only after POST /api/auth/2fa/enable with a valid code.',
      security: jwt,
      responses: {
        '200': ok(
          'Pending secret',
          obj({
            secret: str({ description: 'Base32' }),
            otpauth_uri: str(),
            qr_data_url: str({ description: 'data:image/png;base64,…' }),
          }),
        ),
        '401': ref('Unauthorized'),
        '409': ref('Conflict'),
      },
    }),
    '/api/auth/2fa/enable': op({
      summary: 'Turn TOTP on with a code from the authenticator',
      security: jwt,
      body: obj({ code: CODE }),
      responses: {
        '200': ok('On', obj({ two_factor_enabled: { type: 'boolean' } })),
        '401': ref('Unauthorized'),
        '409': ref('Conflict'),
      },
    }),
    '/api/auth/2fa/disable': op({
      summary: 'Turn TOTP off; needs the password and a current code',
      security: jwt,
      body: obj({ password: PASSWORD, code: CODE }),
      responses: {
        '200': ok('Off', obj({ two_factor_enabled: { type: 'boolean' } })),
        '401': ref('Unauthorized'),
        '403': { description: 'password or code is wrong' },
        '409': ref('Conflict'),
      },
    }),
    '/api/auth/send-reset-code': op({
      summary: 'Mail a password-reset code (valid 10 minutes) if the email has an account',
      description: 'The answer is the same whether or not the email has an account.',
      body: obj({ email: EMAIL }),
      rule: AUTH_LIMITS.sendResetCode,
      responses: { '202': ok('Accepted', obj({ status: str({ enum: ['sent_if_registered'] }), detail: str() })) },
    }),
    '/api/auth/reset-password-code': op({
      summary: 'Set a new password with the mailed reset code; every older session stops working',
      description: 'An unknown email and a wrong code get the same 400; five wrong codes burn the code.',
      body: obj({ email: EMAIL, code: CODE, new_password: NEW_PASSWORD }),
      rule: AUTH_LIMITS.resetPasswordCode,
      responses: { '200': ok('Password changed', obj({ status: str({ enum: ['password_reset'] }) })) },
    }),
  };
}
