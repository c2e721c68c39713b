import type { DeliveredEvent } from '@signet/kit';
import { events, type EventEntry } from '@signet/proto';
import type { WebhookEventType, WebhookFact } from '../domain/webhook-event.js';

export const WEBHOOK_DURABLE = 'transaction-webhooks';

type Source<T> = { entry: EventEntry<T>; facts: (e: T, eventId: string) => WebhookFact[] };
const source = <T>(entry: EventEntry<T>, facts: (e: T, eventId: string) => WebhookFact[]): Source<T> => ({ entry, facts });

/** A signer moved to this state → this customer event (from "created" only for consent: a retry returns to consent_accepted). */
const SIGNER_STATE_EVENTS: Record<string, WebhookEventType> = {
  consent_accepted: 'signer.consented',
  passed: 'signer.verified',
  failed: 'signer.failed',
  // declined: from signet.transaction.signer.declined below, which carries the reason.
};
/** The transaction moved to this status → this customer event. */
const STATUS_EVENTS: Record<string, WebhookEventType> = {
  ledger_issued: 'transaction.completed',
  cancelled: 'transaction.cancelled',
  expired: 'transaction.expired',
};

/**
 * THE table from internal events (proto/events/registry.ts) to customer webhook events. Each fact's
 * key is the internal event id (plus the signer when one event makes several facts), so a
 * redelivered internal event makes the same facts.
 */
export const WEBHOOK_SOURCES: readonly Source<any>[] = [
  source(events.transactionCreated, (e, id) => [
    {
      key: id,
      type: 'transaction.created',
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      ...(e.ownerId ? { ownerId: e.ownerId } : {}),
    },
  ]),
  source(events.linksRequested, (e, id) =>
    e.signerIndexes.map((i) => ({
      key: `${id}:${i}`,
      type: 'signer.link_sent' as const,
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      ...(e.ownerId ? { ownerId: e.ownerId } : {}),
      signerIndex: i,
      extra: { link_kind: e.kind },
    })),
  ),
  source(events.signerStateChanged, (e, id) => {
    const type = SIGNER_STATE_EVENTS[e.to];
    if (!type || (type === 'signer.consented' && e.from !== 'created')) return [];
    return [{ key: id, type, occurredAt: e.occurredAt, transactionId: Number(e.transactionId), signerIndex: e.signerIndex }];
  }),
  source(events.signerOpened, (e, id) => [
    {
      key: id,
      type: 'signer.opened',
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      signerIndex: e.signerIndex,
    },
  ]),
  source(events.signerDeclined, (e, id) => [
    {
      key: id,
      type: 'signer.declined',
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      signerIndex: e.signerIndex,
      extra: { reason: e.reason },
    },
  ]),
  source(events.transactionStatusChanged, (e, id) => {
    const type = STATUS_EVENTS[e.to];
    return type ? [{ key: id, type, occurredAt: e.occurredAt, transactionId: Number(e.transactionId) }] : [];
  }),
  source(events.certificateIssued, (e, id) => [
    {
      key: id,
      type: 'certificate.issued',
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      extra: { certificate_reference: e.reference, leaf_index: Number(e.leafIndex) },
    },
  ]),
  source(events.pdfSealed, (e, id) => [
    {
      key: id,
      type: 'signed_document.ready',
      occurredAt: e.occurredAt,
      transactionId: Number(e.transactionId),
      reference: e.reference,
      extra: { sealed_at: e.sealedAt },
    },
  ]),
];

/** The internal events the webhook consumer reads: the table's, and a bulk job's end (about no transaction; webhook.consumer.ts). */
export const WEBHOOK_EVENTS: EventEntry[] = [...WEBHOOK_SOURCES.map((s) => s.entry), events.bulkCompleted];

/** The facts of one delivered internal event (none when it announces nothing a customer subscribes to). */
export function factsOf(ev: Pick<DeliveredEvent, 'subject' | 'data' | 'eventId'>): WebhookFact[] {
  const s = WEBHOOK_SOURCES.find((x) => x.entry.subject === ev.subject);
  if (!s) return [];
  const msg = s.entry.message.decode(ev.data);
  return s.facts(msg, ev.eventId).map((f) => ({ ...f, occurredAt: f.occurredAt || new Date().toISOString() }));
}
