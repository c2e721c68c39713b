import { describe, expect, it } from 'vitest';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import {
  ACTIONS,
  CHALLENGE_REUSE_MIN_MS,
  CHALLENGE_TTL_MS,
  deriveNonce,
  newChallenge,
  randomActions,
  reusableChallenge,
  startLiveClock,
} from './challenge.js';

const ctx = { documentSha256: 'a'.repeat(64), transactionId: 7, signerIndex: 0, signerEmail: 'Ann@Example.com' };

describe('challenge', () => {
  it('has four distinct BIP-39 words, three known actions and a two-minute expiry', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const c = newChallenge(ctx, 'upload', undefined, now);
    expect(c.words).toHaveLength(4);
    expect(new Set(c.words).size).toBe(4);
    for (const w of c.words) expect(wordlist).toContain(w);
    expect(c.actions).toHaveLength(3);
    for (const a of c.actions) expect(ACTIONS).toContain(a);
    expect(c.expires_at.getTime() - now.getTime()).toBe(CHALLENGE_TTL_MS);
    expect(c.nonce).toMatch(/^[0-9a-f]{64}$/);
  });

  it('never repeats an action twice in a row', () => {
    for (let i = 0; i < 2000; i++) {
      const a = randomActions(3);
      expect(a[0]).not.toBe(a[1]);
      expect(a[1]).not.toBe(a[2]);
    }
  });

  it('derives the nonce from the document, the signer and fresh randomness', () => {
    const a = newChallenge(ctx, 'upload');
    const b = newChallenge(ctx, 'upload');
    expect(a.nonce).not.toBe(b.nonce);
    expect(deriveNonce({ ...ctx, salt: a.salt })).toBe(a.nonce);
    expect(deriveNonce({ ...ctx, documentSha256: 'b'.repeat(64), salt: a.salt })).not.toBe(a.nonce);
    expect(deriveNonce({ ...ctx, signerIndex: 1, salt: a.salt })).not.toBe(a.nonce);
    expect(deriveNonce({ ...ctx, signerEmail: 'ann@example.com', salt: a.salt })).toBe(a.nonce);
  });

  it('serves the live challenge again while a recording and an upload still fit, then a new one', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const c = newChallenge(ctx, 'upload', undefined, now);
    expect(reusableChallenge(c, 'upload', now)).toBe(c);
    expect(reusableChallenge(c, 'upload', new Date(now.getTime() + CHALLENGE_TTL_MS - CHALLENGE_REUSE_MIN_MS))).toBe(c);
    expect(reusableChallenge(c, 'upload', new Date(now.getTime() + CHALLENGE_TTL_MS - CHALLENGE_REUSE_MIN_MS + 1))).toBeNull();
    expect(reusableChallenge(null, 'upload', now)).toBeNull();
  });

  it('never serves an upload challenge (its timeline handed out) as a live one, nor a live one whose stream began', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const up = newChallenge(ctx, 'upload', undefined, now);
    expect(reusableChallenge(up, 'live', now)).toBeNull();
    const live = newChallenge(ctx, 'live', undefined, now);
    expect(reusableChallenge(live, 'live', now)).toBe(live);
    expect(reusableChallenge(live, 'upload', now)).toBeNull();
    expect(reusableChallenge({ ...live, live_started_at: now }, 'live', now)).toBeNull();
  });

  it('serves a live challenge not yet begun until it expires (its clock restarts at the stream start)', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const live = newChallenge(ctx, 'live', undefined, now);
    expect(reusableChallenge(live, 'live', new Date(now.getTime() + CHALLENGE_TTL_MS - 1))).toBe(live);
    expect(reusableChallenge(live, 'live', new Date(now.getTime() + CHALLENGE_TTL_MS))).toBeNull();
    const later = new Date(now.getTime() + 90_000);
    expect(startLiveClock(later).getTime() - later.getTime()).toBe(CHALLENGE_TTL_MS);
  });
});
