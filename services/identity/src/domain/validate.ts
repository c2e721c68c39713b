import { invalid } from '@signet/kit';

/** Defensive checks behind the gateway's own validation: the service never trusts its callers' input. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
export const NAME_MAX = 200;
/** Session length bounds, in hours: the same as SESSION_TTL_HOURS accepts (1 hour to 30 days). */
export const SESSION_TTL_MIN_HOURS = 1;
export const SESSION_TTL_MAX_HOURS = 720;

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

/** An account's biometric retention: whole days from 0 to the operator's maximum. */
export function checkRetentionDays(days: number, maxDays: number, field = 'biometric_retention_days'): number {
  if (!Number.isInteger(days) || days < 0 || days > maxDays)
    throw invalid(`${field} must be a whole number of days from 0 to ${maxDays}`);
  return days;
}

export function checkSessionTtl(hours: number, field = 'session_ttl_hours'): number {
  if (!Number.isInteger(hours) || hours < SESSION_TTL_MIN_HOURS || hours > SESSION_TTL_MAX_HOURS)
    throw invalid(`${field} must be a whole number of hours from ${SESSION_TTL_MIN_HOURS} to ${SESSION_TTL_MAX_HOURS}`);
  return hours;
}
