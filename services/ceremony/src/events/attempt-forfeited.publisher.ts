import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';

export const FORFEIT_SUBJECT = 'signet.ceremony.attempt.forfeited';

/** The `attempt.forfeited` outbox entry, written in the update that spends the attempt. */
export function attemptForfeitedEvent(p: {
  transactionId: number;
  signerIndex: number;
  captureId: string;
  attempt: number;
  reason: string;
}): OutboxEntry {
  return outboxEvent(FORFEIT_SUBJECT, (m) =>
    eventsV1.AttemptForfeited.encode({ eventId: m.event_id, occurredAt: m.occurred_at, ...p }).finish(),
  );
}
