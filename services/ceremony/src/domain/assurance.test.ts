import { describe, expect, it } from 'vitest';
import { achievedOf, meets, requiredOf, uploadAllowed } from './assurance.js';

describe('required assurance', () => {
  it('orders recorded < live < live+webauthn', () => {
    expect(meets('recorded', 'recorded')).toBe(true);
    expect(meets('recorded', 'live')).toBe(false);
    expect(meets('live', 'live')).toBe(true);
    expect(meets('live', 'live+webauthn')).toBe(false);
    expect(meets('live+webauthn', 'live')).toBe(true);
    expect(meets('live+webauthn', 'live+webauthn')).toBe(true);
  });

  it('raises live to live+webauthn only with a verified step; a recorded capture stays recorded', () => {
    expect(achievedOf('live', true)).toBe('live+webauthn');
    expect(achievedOf('live', false)).toBe('live');
    expect(achievedOf('recorded', true)).toBe('recorded');
  });

  it('reads no requirement (older transactions) as recorded, and an unknown one as the strictest', () => {
    expect(requiredOf({})).toBe('recorded');
    expect(requiredOf({ requiredAssurance: '' })).toBe('recorded');
    expect(requiredOf({ requiredAssurance: 'live' })).toBe('live');
    expect(requiredOf({ requiredAssurance: 'LIVE' })).toBe('live+webauthn');
    expect(uploadAllowed('recorded')).toBe(true);
    expect(uploadAllowed('live')).toBe(false);
  });
});
