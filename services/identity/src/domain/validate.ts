import { invalid } from '@signet/kit';

/** Defensive checks behind the gateway's own validation: the service never trusts its callers' input. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
export const NAME_MAX = 200;

export function normEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!email || email.length > 254 || !EMAIL_PATTERN.test(email)) throw invalid(`${field} must be a valid email address`);
  return email;
}

export function checkPassword(pw: string, field = 'password'): string {
  if (pw.length < PASSWORD_MIN) throw invalid(`${field} must be at least ${PASSWORD_MIN} characters`);
  if (pw.length > PASSWORD_MAX) throw invalid(`${field} must be at most ${PASSWORD_MAX} characters`);
  return pw;
}

export function checkText(v: string, field: string, max = NAME_MAX): string {
  const s = v.trim();
  if (!s) throw invalid(`${field} is required`);
  if (s.length > max) throw invalid(`${field} must be at most ${max} characters`);
  return s;
}

export function checkCode(code: string, field = 'code'): string {
  if (!/^\d{6}$/.test(code)) throw invalid(`${field} must be 6 digits`);
  return code;
}
