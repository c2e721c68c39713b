import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretSeal, isPlaintext, signingSecrets } from './secret-seal.js';

const key = randomBytes(32).toString('hex');
const seal = createSecretSeal(key);
const secret = 'whsec_' + randomBytes(32).toString('base64');

describe('endpoint secret seal', () => {
  it('seals with a fresh nonce each time, holds no plaintext, and opens to the secret', () => {
    const a = seal.seal(secret, 'we_1');
    const b = seal.seal(secret, 'we_1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(a).not.toContain(secret.slice(6, 20));
    expect(isPlaintext(a)).toBe(false);
    expect(seal.open(a, 'we_1')).toBe(secret);
  });

  it('does not open under another endpoint, another key, or when changed', () => {
    const a = seal.seal(secret, 'we_1');
    expect(() => seal.open(a, 'we_2')).toThrow();
    expect(() => createSecretSeal(randomBytes(32).toString('hex')).open(a, 'we_1')).toThrow();
    const [v, n, ct, tag] = a.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => seal.open([v, n, flipped.toString('base64url'), tag].join('.'), 'we_1')).toThrow();
    expect(() => seal.open('v2.x.y.z', 'we_1')).toThrow(/format/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSecretSeal('abcd')).toThrow(/32 bytes/);
  });

  it('signs with the previous secret too only while its overlap lasts', () => {
    const old = 'whsec_' + randomBytes(32).toString('base64');
    const until = new Date('2026-01-01T01:00:00Z');
    const ep = {
      _id: 'we_1',
      secret: seal.seal(secret, 'we_1'),
      previous_secret: seal.seal(old, 'we_1'),
      previous_secret_until: until,
    };
    expect(signingSecrets(ep, new Date('2026-01-01T00:59:59Z'), seal)).toEqual([secret, old]);
    expect(signingSecrets(ep, until, seal)).toEqual([secret]);
    expect(signingSecrets({ ...ep, previous_secret: null }, new Date(0), seal)).toEqual([secret]);
    // A secret stored before sealing still signs.
    expect(signingSecrets({ _id: 'we_1', secret }, new Date(0), seal)).toEqual([secret]);
  });
});
