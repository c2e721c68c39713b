import { describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { recordConsent } from './record-consent.js';

function setup(fieldsPending = false) {
  const clock = fakeClock();
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord({ consent: null }));
  let kicked = 0;
  const deps = {
    signingTokens: fakeSigningTokens(signingContext({ signerState: 'created', fieldsPending })),
    sessions,
    metrics: m.metrics,
    onOutbox: () => void kicked++,
    now: clock.now,
  };
  return { deps, sessions, clock, ...m, kicked: () => kicked };
}
const input = { token: 'tok', textVersion: 'consent-v1', ip: '203.0.113.9', userAgent: 'Mozilla/5.0 ' + 'x'.repeat(600) };

describe('recordConsent', () => {
  it('records the consent once, with its event in the same write, and answers the next step', async () => {
    const t = setup();
    const summary = await recordConsent(t.deps, input);
    expect(summary.step).toBe('challenge');
    // The text states the transaction's retention, and the consent stores it.
    expect(summary.consentText).toContain('for 30 days after the signing ends');
    expect(t.sessions.current.consent).toEqual({
      text_version: 'consent-v1',
      retention_days: 30,
      at: new Date(t.clock.now()),
      ip: '203.0.113.9',
      user_agent: input.userAgent.slice(0, 512),
    });
    expect(eventsV1.ConsentAccepted.decode(t.sessions.outbox[0]!.payload)).toMatchObject({ transactionId: 42, signerIndex: 0 });
    expect(t.kicked()).toBe(1);

    await expect(recordConsent(t.deps, input)).rejects.toMatchObject({ reason: 'CONSENT_ALREADY_RECORDED' });
    expect(t.sessions.outbox).toHaveLength(1);
    expect(t.counted('consents', { result: 'duplicate' })).toBe(1);
  });

  it('refuses another text version and an unknown link without writing anything', async () => {
    const t = setup();
    await expect(recordConsent(t.deps, { ...input, textVersion: 'consent-v0' })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    await expect(recordConsent(t.deps, { ...input, token: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
    expect(t.sessions.current.consent).toBeNull();
    expect(t.sessions.outbox).toHaveLength(0);
  });

  it('refuses while the signer’s required fields on the document are empty (issue 33), writing nothing', async () => {
    const t = setup(true);
    await expect(recordConsent(t.deps, input)).rejects.toMatchObject({ reason: 'FIELDS_PENDING' });
    expect(t.sessions.current.consent).toBeNull();
    expect(t.sessions.outbox).toHaveLength(0);
    expect(t.counted('consents', { result: 'fields_pending' })).toBe(1);
  });
});
