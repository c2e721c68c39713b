/**
 * One-time codes mailed for sign-up and password reset, and the onboarding token a verified email
 * earns. Codes are stored only as hashes (see secrets.ts `codeHash`).
 */
export const CODE_TTL_MS = 10 * 60_000;
/** The wrong try that reaches this count burns the code: a new one must be asked for. */
export const CODE_MAX_ATTEMPTS = 5;
export const ONBOARDING_TTL_MS = 60 * 60_000;

/** A stored code (hash and expiry), as the sign-up intent or the user document carries it. */
export type StoredCode = { hash: string | null | undefined; expiresAt: Date | null | undefined };

/** Still usable at nowMs: an expiry exactly now is still good. */
export const isLive = (expiresAt: Date | null | undefined, nowMs: number): expiresAt is Date =>
  !!expiresAt && expiresAt.getTime() >= nowMs;

/** Expired (or never sent), or present and live; comparing the candidate is the caller's constant-time job. */
export const liveCodeHash = (stored: StoredCode | null, nowMs: number): string | null =>
  stored?.hash && isLive(stored.expiresAt, nowMs) ? stored.hash : null;

/** Whether a code that has now been tried wrongly `attempts` times is burnt. */
export const burnsCode = (attempts: number) => attempts >= CODE_MAX_ATTEMPTS;

export const codeExpiry = (nowMs: number) => new Date(nowMs + CODE_TTL_MS);
export const onboardingExpiry = (nowMs: number) => new Date(nowMs + ONBOARDING_TTL_MS);
