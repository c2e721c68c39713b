import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { AuditBy } from '../domain/audit-by.js';

/**
 * signet.transaction.deleted: every service holding the transaction's data deletes it (the ledger its
 * stored PDFs); identity records it in the owner's account audit log, by the member the gateway named.
 */
export function transactionDeleted(
  tx: { _id: number; reference: string; test?: boolean; owner_id: string },
  reason: 'sender',
  by: AuditBy = { actorId: '', ip: '', userAgent: '' },
): OutboxEntry {
  return outboxEvent(events.transactionDeleted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId: tx._id,
    reference: tx.reference,
    reason,
    test: tx.test ?? false,
    ownerId: tx.owner_id,
    actorId: by.actorId,
    ip: by.ip,
    userAgent: by.userAgent,
  }));
}
