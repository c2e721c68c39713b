import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';

/** The `ceremony.media.erased` outbox entry, written in the update that marks a session's media erased. */
export function mediaErasedEvent(transactionId: number, signerIndex: number, reason: string, keyDigests: string[]): OutboxEntry {
  return outboxEvent(events.mediaErased, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId,
    signerIndex,
    reason,
    keySha256: keyDigests,
  }));
}
