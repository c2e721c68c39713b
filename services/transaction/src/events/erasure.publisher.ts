import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { AuditBy } from '../domain/audit-by.js';
import type { ErasureReason } from '../domain/retention.js';

/**
 * signet.transaction.erasure.requested: the ceremony deletes the transaction's capture media on it.
 * With `audit` (the owner, and the member and client who asked) identity records it in the account
 * audit log; without, it is not recorded there (a deletion's own erasure: the deletion is).
 */
export function erasureRequested(
  transactionId: number,
  reason: ErasureReason,
  audit?: { ownerId: string; by?: AuditBy },
): OutboxEntry {
  return outboxEvent(events.erasureRequested, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId,
    reason,
    ownerId: audit?.ownerId ?? '',
    actorId: audit?.by?.actorId ?? '',
    ip: audit?.by?.ip ?? '',
    userAgent: audit?.by?.userAgent ?? '',
  }));
}
