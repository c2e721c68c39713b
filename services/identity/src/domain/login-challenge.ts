/**
 * The two-factor login challenge: a password login of an account with TOTP on answers with an
 * opaque challenge (kept hashed in Redis), good for a few minutes and a few wrong codes.
 */
export const MFA_CHALLENGE_TTL_S = 300;
/** The wrong code that reaches this count drops the challenge: the user signs in again. */
export const MFA_MAX_ATTEMPTS = 5;

export const challengeExpiry = (nowMs: number) => new Date(nowMs + MFA_CHALLENGE_TTL_S * 1000);
export const dropsChallenge = (attempts: number) => attempts >= MFA_MAX_ATTEMPTS;
