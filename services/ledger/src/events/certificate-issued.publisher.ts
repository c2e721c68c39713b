import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';

export const ISSUED_SUBJECT = 'signet.ledger.certificate.issued';

/** The `certificate.issued` outbox entry, written in the insert of the certificate and published by the relay. */
export function certificateIssuedEvent(c: {
  transactionId: number;
  reference: string;
  leafIndex: number;
  ledgerSeal: string;
}): OutboxEntry {
  return outboxEvent(ISSUED_SUBJECT, (meta) =>
    eventsV1.CertificateIssued.encode({
      eventId: meta.event_id,
      occurredAt: meta.occurred_at,
      transactionId: c.transactionId,
      reference: c.reference,
      leafIndex: c.leafIndex,
      ledgerSeal: c.ledgerSeal,
    }).finish(),
  );
}
