import { withTrail } from '../domain/trail.js';
import { applyConsent } from '../domain/ceremony-steps.js';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { applyChange, type ChangeDeps } from './apply-change.js';

/** What the ceremony recorded with the consent (consent.accepted), for the audit trail. */
export type ConsentTrail = {
  textVersion: string;
  ip: string;
  userAgent: string;
  openedAt: Date | null;
  /** SHA-256 (hex) of the attestation sentence agreed to; empty: not recorded. */
  attestationTextSha256?: string;
};

/**
 * A signer consented (ceremony): created → consent_accepted, with the consent's trail (and when the
 * signer's link was first mailed) kept on the signer. A repeated or late consent changes nothing.
 */
export async function acceptConsent(
  deps: ChangeDeps & { repo: ChangeDeps['repo'] & Partial<Pick<TransactionRepository, 'linkMailsOf'>> },
  ev: { transactionId: number; signerIndex: number; at?: Date; trail?: ConsentTrail },
): Promise<void> {
  const mails = (await deps.repo.linkMailsOf?.(ev.transactionId)) ?? [];
  const sent = mails
    .filter((m) => m.signer_index === ev.signerIndex && m.result === 'sent')
    .map((m) => new Date(m.at))
    .sort((a, b) => a.getTime() - b.getTime())[0];
  await applyChange(deps, { id: ev.transactionId }, (s, now) =>
    withTrail(applyConsent(s, ev.signerIndex, ev.at ?? now), ev.signerIndex, {
      link_sent_at: sent ?? null,
      opened_at: ev.trail?.openedAt ?? null,
      consented_at: ev.at ?? now,
      consent_text_version: ev.trail?.textVersion ?? '',
      consent_ip: ev.trail?.ip ?? '',
      consent_user_agent: ev.trail?.userAgent ?? '',
      attestation_text_sha256: ev.trail?.attestationTextSha256 ?? '',
    }),
  );
}
