import { describe, expect, it } from 'vitest';
import { achievedSignerAssurance } from './assurance.js';

describe('a signer’s achieved assurance', () => {
  it('is set only once the signer passed', () => {
    for (const state of ['created', 'consent_accepted', 'capture_accepted', 'failed', 'declined'] as const)
      expect(achievedSignerAssurance({ state, assurance: 'live', webauthn_verified: true })).toBeUndefined();
  });
  it('names WebAuthn only on a live capture that came with a verified WebAuthn step', () => {
    expect(achievedSignerAssurance({ state: 'passed', assurance: 'live', webauthn_verified: true })).toBe('live+webauthn');
    expect(achievedSignerAssurance({ state: 'passed', assurance: 'live', webauthn_verified: false })).toBe('live');
    expect(achievedSignerAssurance({ state: 'passed', assurance: 'recorded', webauthn_verified: true })).toBe('recorded');
    expect(achievedSignerAssurance({ state: 'passed', assurance: 'test' })).toBe('test');
  });
  it('reads a passed signer of a record from before the level existed as recorded', () => {
    expect(achievedSignerAssurance({ state: 'passed' })).toBe('recorded');
    expect(achievedSignerAssurance({ state: 'passed', assurance: '' })).toBe('recorded');
  });
});
