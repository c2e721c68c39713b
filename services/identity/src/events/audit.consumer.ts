import type { DeliveredEvent } from '@signet/kit';
import { events, type EventEntry } from '@signet/proto';
import { clip } from '../domain/audit.js';
import type { AuditRecord, AuditRepository } from '../store/audit.repository.js';
import type { UserRepository } from '../store/user.repository.js';

/**
 * The durable and what it reads: identity's own entries and the transaction service's deletions and
 * erasures. Anything starting it uses this one definition: whoever starts a durable last sets its
 * subjects (startConsumer updates them), so a second definition with fewer subjects would narrow it.
 */
export const AUDIT_CONSUMER: { durable: string; events: readonly EventEntry[] } = {
  durable: 'identity-audit',
  events: [events.auditRecorded, events.transactionDeleted, events.erasureRequested],
};

export type AuditConsumerDeps = {
  audit: Pick<AuditRepository, 'appendOnce'>;
  users: Pick<UserRepository, 'byId'>;
  securityMetrics: { audit: { inc(labels: { action?: string }): void } };
};

const dateOf = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? new Date() : at;
};

/** identity.audit.recorded: the entry as identity's own write described it. */
function recorded(ev: DeliveredEvent): Omit<AuditRecord, '_id'> | null {
  const e = events.auditRecorded.message.decode(ev.data);
  if (!e.accountId || !e.action) return null;
  return {
    account_id: e.accountId,
    at: dateOf(e.occurredAt),
    action: e.action,
    actor_id: e.actorId,
    actor_email: e.actorEmail,
    target: e.target,
    ip: clip(e.ip, 64),
    user_agent: clip(e.userAgent),
    details: { ...e.details },
  };
}

/** transaction.deleted: the transaction service's deletion, by the member the gateway named (their e-mail looked up here). */
async function deleted(deps: AuditConsumerDeps, ev: DeliveredEvent): Promise<Omit<AuditRecord, '_id'> | null> {
  const e = events.transactionDeleted.message.decode(ev.data);
  // Events written before the deletion named its owner cannot be placed in a log.
  if (!e.ownerId) return null;
  const actor = e.actorId ? await deps.users.byId(e.actorId) : null;
  return {
    account_id: e.ownerId,
    at: dateOf(e.occurredAt),
    action: 'transaction.deleted',
    actor_id: e.actorId,
    actor_email: actor?.email ?? '',
    target: String(e.transactionId),
    ip: clip(e.ip, 64),
    user_agent: clip(e.userAgent),
    details: { reference: e.reference, mode: e.test ? 'test' : 'live', reason: e.reason },
  };
}

/**
 * transaction.erasure.requested: a transaction's biometric data erased, by the owner's request (the
 * member the gateway named), the retention or a signer's request (no member: the reason says why).
 * An event without an owner is the erasure a deletion includes, recorded as the deletion.
 */
async function erased(deps: AuditConsumerDeps, ev: DeliveredEvent): Promise<Omit<AuditRecord, '_id'> | null> {
  const e = events.erasureRequested.message.decode(ev.data);
  if (!e.ownerId) return null;
  const actor = e.actorId ? await deps.users.byId(e.actorId) : null;
  return {
    account_id: e.ownerId,
    at: dateOf(e.occurredAt),
    action: 'transaction.biometrics_erased',
    actor_id: e.actorId,
    actor_email: actor?.email ?? '',
    target: String(e.transactionId),
    ip: clip(e.ip, 64),
    user_agent: clip(e.userAgent),
    details: { reason: e.reason },
  };
}

/**
 * identity-audit: appends each `identity.audit.recorded` event, and the transaction service's
 * `transaction.deleted` and `transaction.erasure.requested`, to the account's log with the event id
 * as the entry's id, so a redelivery (or the relay publishing twice after a crash) appends nothing and
 * is not counted twice.
 */
export function auditConsumer(deps: AuditConsumerDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const entry =
      ev.subject === events.transactionDeleted.subject
        ? await deleted(deps, ev)
        : ev.subject === events.erasureRequested.subject
          ? await erased(deps, ev)
          : recorded(ev);
    if (!entry) return;
    if (await deps.audit.appendOnce({ _id: ev.eventId, ...entry })) deps.securityMetrics.audit.inc({ action: entry.action });
  };
}
