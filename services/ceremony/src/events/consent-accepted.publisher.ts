import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';

export const CONSENT_SUBJECT = 'signet.ceremony.consent.accepted';

/** The `consent.accepted` outbox entry, written in the update that records the consent. */
export function consentAcceptedEvent(transactionId: number, signerIndex: number): OutboxEntry {
  return outboxEvent(CONSENT_SUBJECT, (m) =>
    eventsV1.ConsentAccepted.encode({ eventId: m.event_id, occurredAt: m.occurred_at, transactionId, signerIndex }).finish(),
  );
}
