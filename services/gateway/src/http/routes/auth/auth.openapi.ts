import { AUTH_LIMITS, type RateLimitRule } from '../../rate-limit.js';

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

/** The OpenAPI paths of /api/auth/*. */
export function authOpenapi(): Record<string, unknown> {
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
