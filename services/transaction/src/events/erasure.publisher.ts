import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { ErasureReason } from '../domain/retention.js';

/** signet.transaction.erasure.requested: the ceremony deletes the transaction's capture media on it. */
export function erasureRequested(transactionId: number, reason: ErasureReason): OutboxEntry {
  return outboxEvent(events.erasureRequested, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId,
    reason,
  }));
}
