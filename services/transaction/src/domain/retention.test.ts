import { describe, expect, it } from 'vitest';
import { erasureDue, keyDigest, mediaErasedEntry, mediaErasureLogged, referenceErasedEntry, retentionDays } from './retention.js';

describe('biometric retention', () => {
  it('takes the requested days, else the default, never above the maximum', () => {
    expect(retentionDays(undefined, 30, 365)).toBe(30);
    expect(retentionDays(7, 30, 365)).toBe(7);
    expect(retentionDays(900, 30, 365)).toBe(365);
    expect(retentionDays(undefined, 30, 10)).toBe(10);
    expect(retentionDays(0, 30, 365)).toBe(0);
  });

  it('is due the given number of days after the end', () => {
    expect(erasureDue(new Date('2026-01-01T00:00:00Z'), 30, 86_400_000).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(erasureDue(new Date(1000), 3, 2000).getTime()).toBe(7000);
  });

  it('logs keys only hashed, with the reason and who', () => {
    const e = referenceErasedEntry('2026-01/abc', 'sender', new Date(0));
    expect(e).toMatchObject({ type: 'biometrics_erased', actor: 'sender' });
    expect(e.detail).toContain(keyDigest('2026-01/abc'));
    expect(e.detail).not.toContain('2026-01/abc');
    expect(e.detail).toContain('reason sender');
    const m = mediaErasedEntry(1, ['aa', 'bb'], 'retention', new Date(0));
    expect(m).toMatchObject({
      type: 'media_erased',
      actor: 'system',
      detail: 'signer 1: 2 capture object(s) (key sha256 aa, bb); reason retention',
    });
    expect(mediaErasureLogged([m], 1)).toBe(true);
    expect(mediaErasureLogged([m], 0)).toBe(false);
  });
});
