import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import { clip, type AuditEntry } from '../domain/audit.js';

/**
 * The `identity.audit.recorded` outbox entry of an audit entry: the use case writes it in the same
 * single-document update as the action it records (so a crash cannot keep one without the other),
 * and identity's own consumer appends it to the log under the event id.
 */
export function auditRecordedEvent(e: AuditEntry): OutboxEntry {
  return outboxEvent(events.auditRecorded, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    accountId: e.actor.org_id || e.actor._id,
    action: e.action,
    actorId: e.actor._id,
    actorEmail: e.actor.email,
    target: e.target ?? '',
    ip: clip(e.client.ip, 64),
    userAgent: clip(e.client.userAgent),
    details: e.details ?? {},
  }));
}
