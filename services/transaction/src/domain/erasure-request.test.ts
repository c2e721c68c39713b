import { describe, expect, it } from 'vitest';
import {
  dueErasureReason,
  erasureRequestedEntry,
  mediaErasedEntry,
  referenceErasedEntry,
  signerErasureDue,
} from './retention.js';

describe("a signer's erasure request", () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const week = 7 * 86_400_000;

  it('falls due after the notice period', () => {
    expect(signerErasureDue(now, week, null).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(signerErasureDue(now, week, new Date('2026-04-01T00:00:00Z')).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });

  it('never postpones an erasure the retention already set sooner', () => {
    const sooner = new Date('2026-03-03T00:00:00Z');
    expect(signerErasureDue(now, week, sooner).toISOString()).toBe(sooner.toISOString());
  });

  it('is the reason only once it is the erasure that fell due', () => {
    expect(dueErasureReason(null, now)).toBe('retention');
    expect(dueErasureReason({ due: new Date('2026-03-08T12:00:00Z') }, now)).toBe('retention');
    expect(dueErasureReason({ due: new Date('2026-03-01T11:59:59Z') }, now)).toBe('signer');
  });

  it('is logged with the signer as actor and the due date, and the erasure names the signer as its reason', () => {
    const due = new Date('2026-03-08T12:00:00Z');
    expect(erasureRequestedEntry(1, due, now)).toEqual({
      type: 'biometrics_erasure_requested',
      at: now,
      actor: 'signer',
      detail: 'signer 1 asked for their biometric data to be erased; due 2026-03-08T12:00:00.000Z',
    });
    expect(referenceErasedEntry('k', 'signer', now)).toMatchObject({ actor: 'signer' });
    expect(referenceErasedEntry('k', 'signer', now).detail).toMatch(/reason signer$/);
    expect(mediaErasedEntry(0, [], 'signer', now)).toMatchObject({
      actor: 'signer',
      detail: 'signer 0: no capture objects; reason signer',
    });
  });
});
