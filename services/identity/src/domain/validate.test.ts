import { describe, expect, it } from 'vitest';
import { DomainError } from '@signet/kit';
import { checkSessionTtl } from './validate.js';

describe('checkSessionTtl', () => {
  it.each([1, 24, 720])('accepts %i', (h) => expect(checkSessionTtl(h)).toBe(h));
  it.each([0, -1, 721, 2.5, Number.NaN])('refuses %s as invalid input naming the field', (h) => {
    expect(() => checkSessionTtl(h)).toThrow(DomainError);
    expect(() => checkSessionTtl(h)).toThrow(/^session_ttl_hours must be a whole number of hours from 1 to 720$/);
  });
});
