import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `consent.accepted` outbox entry, written in the update that records the consent. */
export function consentAcceptedEvent(transactionId: number, signerIndex: number): OutboxEntry {
  return outboxEvent(events.consentAccepted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId,
    signerIndex,
  }));
}
