import type { Change, Signer } from './transaction.js';

/**
 * What a signer's ceremony recorded, kept on the signer for the signed PDF's audit trail (issue 17)
 * and sent with transaction.verified: when the link was mailed and first opened, the consent (text
 * version, address, browser), the capture that passed (address, browser). Times are Dates; absent:
 * not recorded (records and events from before it existed).
 */
export type SignerTrail = {
  link_sent_at?: Date | null;
  opened_at?: Date | null;
  consented_at?: Date | null;
  consent_text_version?: string;
  consent_ip?: string;
  consent_user_agent?: string;
  /** SHA-256 (hex) of the attestation sentence the signer agreed to (empty: not recorded). */
  attestation_text_sha256?: string;
  captured_at?: Date | null;
  capture_ip?: string;
  capture_user_agent?: string;
};

type WithTrail = Signer & { trail?: SignerTrail };

/** The change with `patch` merged into one signer's trail (null stays null: nothing applied). */
export function withTrail(change: Change | null, index: number, patch: SignerTrail): Change | null {
  if (!change) return null;
  return {
    ...change,
    signers: change.signers.map((s) =>
      s.index === index ? ({ ...s, trail: { ...(s as WithTrail).trail, ...patch } } as WithTrail) : s,
    ),
  };
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

/** A signer's trail as transaction.verified carries it (events.proto SignerTrail). */
export function trailMessage(s: Signer) {
  const t = (s as WithTrail).trail ?? {};
  return {
    linkSentAt: iso(t.link_sent_at),
    openedAt: iso(t.opened_at),
    consentedAt: iso(t.consented_at),
    consentTextVersion: t.consent_text_version ?? '',
    consentIp: t.consent_ip ?? '',
    consentUserAgent: t.consent_user_agent ?? '',
    attestationTextSha256: t.attestation_text_sha256 ?? '',
    capturedAt: iso(t.captured_at),
    captureIp: t.capture_ip ?? '',
    captureUserAgent: t.capture_user_agent ?? '',
    attempt: s.attempt,
  };
}
