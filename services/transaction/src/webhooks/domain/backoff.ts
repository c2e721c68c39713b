/**
 * The retry schedule of a delivery: attempt n (1-based) failed → wait base·2^(n-1), capped, with
 * ±jitter (a fraction of the wait) so endpoints that failed together do not retry together; after
 * `maxAttempts` attempts the delivery has failed. The defaults give 16 attempts over about 3 days
 * (1 min, 2 min, 4 min, ... 8.5 h, then every 12 h: 77 h before jitter). Tests shorten base and cap (WEBHOOK_RETRY_BASE_MS, ...).
 */
export type RetrySchedule = { baseMs: number; capMs: number; maxAttempts: number; jitter: number };

export const DEFAULT_SCHEDULE: RetrySchedule = { baseMs: 60_000, capMs: 12 * 3600_000, maxAttempts: 16, jitter: 0.2 };

/** The wait after failed attempt `attempt` (1-based), or null when no attempt is left. `random` ∈ [0, 1). */
export function retryDelayMs(s: RetrySchedule, attempt: number, random: number = Math.random()): number | null {
  if (attempt >= s.maxAttempts) return null;
  const wait = Math.min(s.capMs, s.baseMs * 2 ** (attempt - 1));
  return Math.max(0, Math.round(wait * (1 + s.jitter * (2 * random - 1))));
}

/** The whole span of a schedule without jitter: first attempt to last (for the decision record and tests). */
export function scheduleSpanMs(s: RetrySchedule): number {
  let total = 0;
  for (let a = 1; a < s.maxAttempts; a++) total += Math.min(s.capMs, s.baseMs * 2 ** (a - 1));
  return total;
}
