import { describe, expect, it } from 'vitest';
import { modeFilter, modeOf, modeOfTransaction, parseMode, parseScope } from './mode.js';

describe('webhook endpoint modes', () => {
  it('reads a missing mode as live, on endpoints and transactions', () => {
    expect(modeOf({})).toBe('live');
    expect(modeOf({ mode: null })).toBe('live');
    expect(modeOf({ mode: 'test' })).toBe('test');
    expect(modeOfTransaction({})).toBe('live');
    expect(modeOfTransaction({ test: true })).toBe('test');
  });

  it('takes an empty scope as live and refuses anything unknown', () => {
    expect(parseScope('')).toBe('live');
    expect(parseScope(undefined)).toBe('live');
    expect(parseScope('test')).toBe('test');
    expect(parseScope('any')).toBe('any');
    expect(() => parseScope('TEST')).toThrow(/mode/);
    expect(parseMode('')).toBe('live');
    expect(parseMode('test')).toBe('test');
    expect(() => parseMode('any')).toThrow(/mode/);
  });

  it('filters live as "not test", so endpoints stored before modes stay live', () => {
    expect(modeFilter('live')).toEqual({ mode: { $ne: 'test' } });
    expect(modeFilter('test')).toEqual({ mode: 'test' });
    expect(modeFilter('any')).toEqual({});
  });
});
