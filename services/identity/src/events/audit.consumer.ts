import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { clip } from '../domain/audit.js';
import type { AuditRepository } from '../store/audit.repository.js';

export type AuditConsumerDeps = {
  audit: Pick<AuditRepository, 'appendOnce'>;
  securityMetrics: { audit: { inc(labels: { action?: string }): void } };
};

/**
 * identity-audit: appends each `identity.audit.recorded` event to the account's log with the event
 * id as the entry's id, so a redelivery (or the relay publishing twice after a crash) appends
 * nothing and is not counted twice.
 */
export function auditConsumer(deps: AuditConsumerDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.auditRecorded.message.decode(ev.data);
    if (!e.accountId || !e.action) return;
    const at = new Date(e.occurredAt);
    const added = await deps.audit.appendOnce({
      _id: ev.eventId,
      account_id: e.accountId,
      at: Number.isNaN(at.getTime()) ? new Date() : at,
      action: e.action,
      actor_id: e.actorId,
      actor_email: e.actorEmail,
      target: e.target,
      ip: clip(e.ip, 64),
      user_agent: clip(e.userAgent),
      details: { ...e.details },
    });
    if (added) deps.securityMetrics.audit.inc({ action: e.action });
  };
}
