import { z } from 'zod';

/** Field rules of the /api/auth/* bodies. */
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

/** The body of each /api/auth/* route. */
export const schemas = {
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
