import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `attempt.forfeited` outbox entry, written in the update that spends the attempt. */
export function attemptForfeitedEvent(p: {
  transactionId: number;
  signerIndex: number;
  captureId: string;
  attempt: number;
  reason: string;
}): OutboxEntry {
  return outboxEvent(events.attemptForfeited, (m) => ({ eventId: m.event_id, occurredAt: m.occurred_at, ...p }));
}
