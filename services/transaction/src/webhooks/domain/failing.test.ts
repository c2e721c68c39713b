import { describe, expect, it } from 'vitest';
import { DEFAULT_DISABLE_AFTER_MS, failingTooLong } from './failing.js';

describe('an endpoint failing too long', () => {
  const since = new Date('2026-11-01T00:00:00Z');
  it('is disabled from the configured streak on, not a millisecond before', () => {
    expect(failingTooLong(since, new Date(since.getTime() + DEFAULT_DISABLE_AFTER_MS - 1), DEFAULT_DISABLE_AFTER_MS)).toBe(false);
    expect(failingTooLong(since, new Date(since.getTime() + DEFAULT_DISABLE_AFTER_MS), DEFAULT_DISABLE_AFTER_MS)).toBe(true);
  });
  it('defaults to five days', () => {
    expect(DEFAULT_DISABLE_AFTER_MS).toBe(5 * 24 * 3600 * 1000);
  });
});
