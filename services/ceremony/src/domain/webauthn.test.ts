import { describe, expect, it } from 'vitest';
import { webauthnChallenge, withWebauthn } from './webauthn.js';

describe('webauthn challenge', () => {
  it('commits to the document hash and the nonce', () => {
    const a = webauthnChallenge('a'.repeat(64), 'n1', 'salt');
    expect(webauthnChallenge('a'.repeat(64), 'n1', 'salt').base64url).toBe(a.base64url);
    expect(webauthnChallenge('b'.repeat(64), 'n1', 'salt').base64url).not.toBe(a.base64url);
    expect(webauthnChallenge('a'.repeat(64), 'n2', 'salt').base64url).not.toBe(a.base64url);
    expect(a.bytes).toHaveLength(32);
    expect(webauthnChallenge('a'.repeat(64), 'n1').salt).not.toBe(webauthnChallenge('a'.repeat(64), 'n1').salt);
  });
  it('adds webauthn to the verification mode only when done', () => {
    expect(withWebauthn('biometric', true)).toBe('biometric+webauthn');
    expect(withWebauthn('liveness', false)).toBe('liveness');
  });
});
