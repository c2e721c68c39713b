/** Default of WEBHOOK_DISABLE_AFTER_MS: five days of nothing but failed attempts. */
export const DEFAULT_DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * True when an endpoint that has failed every attempt since `since` (its last success, or its first
 * attempt) has done so for `afterMs` or longer: it is disabled then, its owner mailed.
 */
export function failingTooLong(since: Date, now: Date, afterMs: number): boolean {
  return now.getTime() - since.getTime() >= afterMs;
}
