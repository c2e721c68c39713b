/** Plans, their monthly quotas and the usage period (the UTC calendar month). */
export type Plan = 'Free' | 'Pro' | 'Firm';
export type PaidTier = Exclude<Plan, 'Free'>;

export const MONTHLY_LIMIT: Record<Plan, number> = { Free: 3, Pro: 25, Firm: 150 };

/** The period of credit consumptions: credits do not expire with the month. */
export const CREDIT_PERIOD = 'credit';

/** The usage period a moment falls in: its UTC calendar month, `YYYY-MM`. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Payment metadata spells plans in lower case (`pro`, `firm`, `payg`); only the paid tiers map to a plan. */
export function tierFromMetadata(plan: unknown): PaidTier | null {
  if (plan === 'pro') return 'Pro';
  if (plan === 'firm') return 'Firm';
  return null;
}

/** The first instant of the next UTC calendar month. */
export function endOfUtcMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** The same day one calendar month later (clamped to the month's last day), in UTC. */
export function addOneMonth(at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(at.getUTCDate(), lastDay),
      at.getUTCHours(),
      at.getUTCMinutes(),
      at.getUTCSeconds(),
      at.getUTCMilliseconds(),
    ),
  );
}
