import { describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import { mediaCommitment, mismatchedCommitments } from '@signet/verify';
import { certificateFromEvent, openingsFromEvent } from './verified.consumer.js';

const salt = '00112233445566778899aabbccddeeff';
const hex = (c: string) => c.repeat(64);
const signer = (name: string, email: string, checks: string[], media: { v: string; f: string; r: string }) =>
  eventsV1.CertifiedSigner.fromPartial({
    name,
    email,
    verificationMode: checks.includes('face_match') ? 'biometric' : 'liveness',
    assurance: 'live',
    verifiedAt: '2026-11-27T09:10:00.000Z',
    videoSha256: mediaCommitment(salt, media.v),
    frameSha256: mediaCommitment(salt, media.f),
    referenceSha256: mediaCommitment(salt, media.r),
    role: 'signer',
    order: 1,
    checks,
    trail: { consentTextVersion: 'consent-v1', consentedAt: '2026-11-27T09:01:00.000Z', attestationTextSha256: hex('c') },
    media: { videoSha256: media.v, frameSha256: media.f, referenceSha256: media.r },
  });

const event = eventsV1.TransactionVerified.fromPartial({
  transactionId: 7,
  reference: 'ACM-TX-00000007',
  documentSha256: hex('A'),
  documentName: 'Contrato – 2026.pdf',
  issuerName: 'Acme',
  attestationType: 'signature',
  commitmentSalt: salt,
  signers: [
    signer('Jan Łukasiewicz', 'jan@example.pl', ['liveness', 'face_match', 'webauthn'], {
      v: hex('1'),
      f: hex('2'),
      r: hex('3'),
    }),
    signer('محمد', 'm@example.com', ['liveness'], { v: hex('4'), f: hex('5'), r: '' }),
  ],
});

describe('transaction.verified → the certificate of version 2 and the owner’s commitment openings', () => {
  it('carries the document name and, per signer, WebAuthn, the consent and the attestation hash; e-mails masked', () => {
    const c = certificateFromEvent(event);
    expect(c).toMatchObject({ version: 2, document_sha256: hex('a'), document_name: 'Contrato – 2026.pdf' });
    expect(c.signers[0]).toMatchObject({
      name: 'Jan Łukasiewicz',
      email_masked: 'j***@example.pl',
      verification_mode: 'biometric',
      webauthn: true,
      consent_text_version: 'consent-v1',
      consented_at: '2026-11-27T09:01:00.000Z',
      attestation_text_sha256: hex('c'),
    });
    expect(c.signers[1]).toMatchObject({ webauthn: false, checks: ['liveness'], reference_commitment: '' });
    // Media hashes and the salt never enter the certificate (the leaf is public).
    expect(JSON.stringify(c)).not.toContain(salt);
    expect(JSON.stringify(c)).not.toContain(hex('1'));
  });

  it('opens every commitment of the certificate; none for an event without the salt or a signer’s media', () => {
    const o = openingsFromEvent(event)!;
    expect(o.salt).toBe(salt);
    expect(mismatchedCommitments(certificateFromEvent(event), o)).toEqual([]);
    expect(openingsFromEvent({ ...event, commitmentSalt: '' })).toBeUndefined();
    expect(openingsFromEvent({ ...event, signers: [{ ...event.signers[0]!, media: undefined }] })).toBeUndefined();
  });

  it('reads an older event (no trail, no checks) as empty fields, not as a failure', () => {
    const old = eventsV1.TransactionVerified.fromPartial({
      ...event,
      signers: [{ name: 'A', email: 'a@b.c', verificationMode: 'biometric' }],
    });
    expect(certificateFromEvent(old).signers[0]).toMatchObject({
      role: 'signer',
      order: 1,
      checks: [],
      consented_at: '',
      webauthn: false,
    });
  });
});
