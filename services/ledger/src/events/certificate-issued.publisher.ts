import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `certificate.issued` outbox entry, written in the insert of the certificate and published by the relay. */
export function certificateIssuedEvent(c: {
  transactionId: number;
  reference: string;
  leafIndex: number;
  ledgerSeal: string;
}): OutboxEntry {
  return outboxEvent(events.certificateIssued, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    transactionId: c.transactionId,
    reference: c.reference,
    leafIndex: c.leafIndex,
    ledgerSeal: c.ledgerSeal,
  }));
}
