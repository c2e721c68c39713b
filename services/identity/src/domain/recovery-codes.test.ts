import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, parseRecoveryCode } from './recovery-codes.js';

describe('recovery codes', () => {
  it('makes ten distinct codes XXXX-XXXX-XXXX that parse back to their id and secret', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes.map((c) => c.id)).size).toBe(10);
    for (const c of codes) {
      expect(c.text).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      expect(parseRecoveryCode(c.text)).toEqual({ id: c.id, secret: c.secret });
      expect(parseRecoveryCode(` ${c.text.toLowerCase().replace(/-/g, ' ')} `)).toEqual({ id: c.id, secret: c.secret });
    }
  });

  it('refuses what cannot be a code', () => {
    for (const bad of ['', 'ABCD-EFGH', 'ABCD-EFGH-JKMNP', 'ABCD-EFGH-JKM!', 'ILOU-ILOU-ILOU', '123456'])
      expect(parseRecoveryCode(bad)).toBeNull();
  });
});
