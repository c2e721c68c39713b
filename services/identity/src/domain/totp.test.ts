import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchStep, otpauthUri, totpAt } from './totp.js';

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890", 8 digits truncated to the last 6.
const SEED = Buffer.from('12345678901234567890');
const secret = base32Encode(SEED);

describe('TOTP', () => {
  it('round-trips base32', () => {
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret).equals(SEED)).toBe(true);
  });

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('matches the RFC 6238 vector at %i s', (t, expected8) => {
    expect(hotp(SEED, Math.floor(t / 30), 8)).toBe(expected8);
    expect(totpAt(secret, t * 1000)).toBe(expected8.slice(2));
  });

  it('accepts one step of drift and nothing further', () => {
    const now = 1_700_000_000_000;
    const code = totpAt(secret, now);
    expect(matchStep(secret, code, now)).toBe(Math.floor(now / 30000));
    expect(matchStep(secret, code, now + 30_000)).toBe(Math.floor(now / 30000));
    expect(matchStep(secret, code, now + 90_000)).toBeNull();
    expect(matchStep(secret, 'abcdef', now)).toBeNull();
  });

  it('builds an otpauth URI authenticator apps read', () => {
    const uri = otpauthUri(secret, 'ada@example.com', 'Signet');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Signet%3Aada%40example.com\?secret=GEZ/);
    expect(uri).toContain('issuer=Signet');
  });
});
