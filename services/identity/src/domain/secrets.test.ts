import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_LENGTH,
  apiKeyModeOf,
  apiKeyPrefixOf,
  createSecretBox,
  hashPassword,
  newApiKey,
  newCode,
  sha256,
  verifyPassword,
} from './secrets.js';

const KEY = 'ab'.repeat(32);

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed, with the same user id only', () => {
    const box = createSecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => box.open(sealed, 'user-2')).toThrow();
    expect(() => createSecretBox('cd'.repeat(32)).open(sealed, 'user-1')).toThrow();
  });
});

describe('API keys and codes', () => {
  it('makes keys with a 12-character prefix and stores only a hash', () => {
    const a = newApiKey();
    expect(a.key).toMatch(API_KEY_PATTERN);
    expect(a.prefix).toHaveLength(API_KEY_PREFIX_LENGTH);
    expect(a.key.startsWith(a.prefix)).toBe(true);
    expect(a.hash).toBe(sha256(a.key));
    expect(newApiKey().key).not.toBe(a.key);
  });
  it('marks test keys by their prefix; a live key never looks like one', () => {
    const t = newApiKey('test');
    expect(t.key).toMatch(/^sgn_test_[A-Za-z0-9]{48}$/);
    expect(t.key).toMatch(API_KEY_PATTERN);
    expect(t.prefix).toHaveLength(17);
    expect(apiKeyPrefixOf(t.key)).toBe(t.prefix);
    expect(apiKeyModeOf(t.key)).toBe('test');
    for (let i = 0; i < 200; i++) {
      const l = newApiKey('live');
      expect(apiKeyModeOf(l.key)).toBe('live');
      expect(apiKeyPrefixOf(l.key)).toBe(l.prefix);
    }
    expect(API_KEY_PATTERN.test('sgn_test_short')).toBe(false);
  });
  it('makes 6-digit codes', () => {
    for (let i = 0; i < 50; i++) expect(newCode()).toMatch(/^\d{6}$/);
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(h, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(h, 'wrong horse battery')).toBe(false);
    expect(await verifyPassword(null, 'anything at all')).toBe(false);
  });
});
