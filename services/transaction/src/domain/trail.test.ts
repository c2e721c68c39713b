import { describe, expect, it } from 'vitest';
import { trailMessage, withTrail } from './trail.js';
import { applyConsent } from './ceremony-steps.js';
import { newSigner, type TxState } from './transaction.js';

const state = (): TxState => ({
  status: 'created',
  signers: [
    newSigner(0, 'Ada', 'ada@example.com', 't0', 3, { mode: 'liveness' }),
    newSigner(1, 'Bob', 'bob@example.com', 't1', 3, { mode: 'liveness' }),
  ],
  certificate_issued: false,
  reference: 'SIG-TX-00000001',
});

describe("a signer's trail", () => {
  it('is merged into the one signer the change is about, keeping what was recorded before', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const consented = withTrail(applyConsent(state(), 1, at), 1, {
      consented_at: at,
      consent_ip: '10.0.0.1',
      consent_text_version: 'v1',
    })!;
    const later = withTrail(consented, 1, { capture_ip: '10.0.0.2' })!;
    const [a, b] = later.signers as (TxState['signers'][number] & { trail?: Record<string, unknown> })[];
    expect(a!.trail).toBeUndefined();
    expect(b!.trail).toEqual({ consented_at: at, consent_ip: '10.0.0.1', consent_text_version: 'v1', capture_ip: '10.0.0.2' });
    expect(b!.state).toBe('consent_accepted');
  });

  it('leaves a change that does not apply as nothing', () => {
    expect(withTrail(null, 0, { consent_ip: '10.0.0.1' })).toBeNull();
  });

  it('goes out as RFC 3339 times and empty strings for what was not recorded', () => {
    const s = {
      ...newSigner(0, 'Ada', 'a@example.com', 't', 3, { mode: 'liveness' }),
      attempt: 2,
      trail: { opened_at: new Date('2026-01-02T03:04:05Z'), consent_ip: '10.0.0.1', attestation_text_sha256: 'ab'.repeat(32) },
    };
    expect(trailMessage(s)).toEqual({
      linkSentAt: '',
      openedAt: '2026-01-02T03:04:05.000Z',
      consentedAt: '',
      consentTextVersion: '',
      consentIp: '10.0.0.1',
      consentUserAgent: '',
      attestationTextSha256: 'ab'.repeat(32),
      capturedAt: '',
      captureIp: '',
      captureUserAgent: '',
      attempt: 2,
    });
    expect(trailMessage(newSigner(0, 'Ada', 'a@example.com', 't', 3, { mode: 'liveness' }))).toMatchObject({
      openedAt: '',
      attestationTextSha256: '',
    });
  });
});
