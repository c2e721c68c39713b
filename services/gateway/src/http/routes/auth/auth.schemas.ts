import { z } from 'zod';
import { text } from '../../text.js';
import { lifecycleSettingsOut } from '../admin/lifecycle-settings.js';

/** Field rules of the /api/auth/* bodies. */
export const fields = {
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email('must be a valid email address')),
  /** New passwords: at least 10 characters. */
  newPassword: text({ min: 10, max: 256 }),
  /** A password being checked (login, confirmations): any non-empty string within the limit. */
  password: text({ min: 1, max: 256 }),
  name: text({ trim: true, nfc: true, min: 1, max: 200 }),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be 6 digits'),
  token: text({ min: 1, max: 512 }),
};

/** The body of each /api/auth/* route. */
export const schemas = {
  register: z.object({ email: fields.email, password: fields.newPassword, name: fields.name }),
  email: z.object({ email: fields.email }),
  verifyEmail: z.object({ email: fields.email, code: fields.code }),
  onboarding: z.object({ onboarding_token: fields.token, org_name: fields.name }),
  login: z.object({ email: fields.email, password: fields.password }),
  mfaLogin: z
    .object({
      challenge: fields.token,
      code: fields.code.optional().meta({ description: 'A TOTP code' }),
      recovery_code: z
        .string()
        .trim()
        .min(1)
        .max(32)
        .optional()
        .meta({ description: 'A recovery code (XXXX-XXXX-XXXX), used once' }),
    })
    .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), {
      message: 'give exactly one of code and recovery_code',
      path: ['code'],
    }),
  changePassword: z.object({ current_password: fields.password, new_password: fields.newPassword }),
  code: z.object({ code: fields.code }),
  disable2fa: z.object({ password: fields.password, code: fields.code }),
  resetPassword: z.object({ email: fields.email, code: fields.code, new_password: fields.newPassword }),
};

// The answers of /api/auth/*.

const time = z.string().meta({ format: 'date-time' });
export const loginResult = z
  .object({
    token: z.string().meta({ description: 'Session JWT (HS256)' }),
    email: z.string(),
    org_name: z.string(),
    expires_at: time,
  })
  .meta({ id: 'Session' });
export const mfaChallenge = z
  .object({
    mfa_required: z.literal(true),
    challenge: z.string(),
    expires_at: time,
    methods: z
      .array(z.enum(['totp', 'passkey', 'recovery_code']))
      .meta({ description: 'The second factors this account may use' }),
  })
  .meta({
    id: 'MfaChallenge',
    description:
      'Post the challenge with a TOTP code or a recovery code to /api/auth/2fa/login, or sign with a passkey ' +
      '(/api/auth/passkey/options then /api/auth/passkey/login, with the challenge); single use, valid 5 minutes',
  });
export const codeSent = z.object({ status: z.literal('code_sent'), email: z.string(), code_expires_at: time });
export const verified = z.object({ verified: z.boolean(), email: z.string(), onboarding_token: z.string() });
export const emailExists = z.object({ email: z.string(), exists: z.boolean() });
export const profile = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.string(),
    org_name: z.string(),
    two_factor_enabled: z.boolean(),
    session_ttl_hours: z.int(),
    biometric_retention_days: z.int(),
    ...lifecycleSettingsOut,
    created_at: time,
    auth_method: z.enum(['session', 'api_key']),
    organisation_id: z.string().meta({ description: 'The organisation: its owner’s user id (an owner’s own)' }),
    role: z
      .enum(['viewer', 'sender', 'admin', 'owner'])
      .meta({ description: 'What this credential may do in the organisation (an API key: bounded by its scopes)' }),
    scopes: z.array(z.string()).optional().meta({ description: 'An API key’s scopes' }),
    plan: z.enum(['Free', 'Pro', 'Firm']).optional(),
    monthly_limit: z.int().optional(),
    monthly_used: z.int().optional(),
    signature_credits: z.int().optional(),
    past_due: z.boolean().optional(),
  })
  .meta({ id: 'Profile' });
export const totpSetup = z.object({
  secret: z.string().meta({ description: 'Base32' }),
  otpauth_uri: z.string(),
  qr_data_url: z.string().meta({ description: 'data:image/png;base64,…' }),
});
export const twoFactor = z.object({ two_factor_enabled: z.boolean() });
export const resetSent = z.object({ status: z.literal('sent_if_registered'), detail: z.string() });
export const passwordReset = z.object({ status: z.literal('password_reset') });
