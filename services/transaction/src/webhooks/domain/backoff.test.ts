import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULE, retryDelayMs, scheduleSpanMs } from './backoff.js';

describe('webhook retry schedule', () => {
  it('doubles the wait after each failed attempt up to the cap, and stops after the last attempt', () => {
    const s = { baseMs: 1000, capMs: 5000, maxAttempts: 5, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(s, a, 0.5))).toEqual([1000, 2000, 4000, 5000, null]);
  });

  it('spreads each wait by at most ±jitter', () => {
    const s = { baseMs: 1000, capMs: 60_000, maxAttempts: 10, jitter: 0.2 };
    expect(retryDelayMs(s, 3, 0)).toBe(3200);
    expect(retryDelayMs(s, 3, 0.999999)).toBe(4800);
    expect(retryDelayMs(s, 3, 0.5)).toBe(4000);
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(s, 2, Math.random())!;
      expect(d).toBeGreaterThanOrEqual(1600);
      expect(d).toBeLessThanOrEqual(2400);
    }
  });

  it('keeps the waits increasing even with jitter (the ranges of consecutive waits do not overlap below the cap)', () => {
    const s = DEFAULT_SCHEDULE;
    for (let a = 1; a < 10; a++) expect(retryDelayMs(s, a, 0.999)!).toBeLessThan(retryDelayMs(s, a + 1, 0)!);
  });

  it('retries for about three days by default', () => {
    const hours = scheduleSpanMs(DEFAULT_SCHEDULE) / 3600_000;
    expect(hours).toBeGreaterThan(60);
    expect(hours).toBeLessThan(84);
    expect(retryDelayMs(DEFAULT_SCHEDULE, DEFAULT_SCHEDULE.maxAttempts)).toBeNull();
  });
});
