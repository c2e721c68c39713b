import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/**
 * The `consent.accepted` outbox entry, written in the update that records the consent, with what the
 * signed PDF's audit trail shows of it: the text version, the address and browser, and when the
 * signer first opened the link (the session's start), and the hash of the attestation sentence shown.
 */
export function consentAcceptedEvent(
  transactionId: number,
  signerIndex: number,
  trail: { textVersion: string; ip: string; userAgent: string; openedAt: Date; attestationTextSha256?: string } = {
    textVersion: '',
    ip: '',
    userAgent: '',
    openedAt: new Date(0),
  },
): OutboxEntry {
  return outboxEvent(events.consentAccepted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId,
    signerIndex,
    consentTextVersion: trail.textVersion,
    ip: trail.ip,
    userAgent: trail.userAgent,
    openedAt: trail.openedAt.getTime() > 0 ? trail.openedAt.toISOString() : '',
    attestationTextSha256: trail.attestationTextSha256 ?? '',
  }));
}
