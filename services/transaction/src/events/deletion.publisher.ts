import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** signet.transaction.deleted: every service holding the transaction's data deletes it (the ledger its stored PDFs). */
export function transactionDeleted(tx: { _id: number; reference: string; test?: boolean }, reason: 'sender'): OutboxEntry {
  return outboxEvent(events.transactionDeleted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId: tx._id,
    reference: tx.reference,
    reason,
    test: tx.test ?? false,
  }));
}
