import { describe, expect, it } from 'vitest';
import { events, type EventEntry } from '@signet/proto';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-event.js';
import { factsOf, WEBHOOK_DURABLE, WEBHOOK_EVENTS } from './webhook-sources.js';

const delivered = <T>(entry: EventEntry<T>, msg: T, eventId = 'ev-1') => ({
  subject: entry.subject,
  data: entry.message.encode(msg).finish(),
  eventId,
});
const at = '2026-11-27T05:00:00.000Z';

describe('the table from internal events to customer webhook events', () => {
  it('reads only events the registry declares for its durable', () => {
    for (const e of WEBHOOK_EVENTS) expect(e.consumers.map((c) => c.durable)).toContain(WEBHOOK_DURABLE);
  });

  it('maps creation, links, the first open, signer and status changes, the certificate and the sealed PDF', () => {
    const created = factsOf(
      delivered(events.transactionCreated, {
        eventId: 'ev-1',
        occurredAt: at,
        transactionId: 7,
        ownerId: 'u1',
        reference: 'SIG-TX-00000007',
        signerCount: 1,
        attestationType: 'signature',
      } as never),
    );
    expect(created).toEqual([
      { key: 'ev-1', type: 'transaction.created', occurredAt: at, transactionId: 7, reference: 'SIG-TX-00000007', ownerId: 'u1' },
    ]);

    const links = factsOf(
      delivered(
        events.linksRequested,
        {
          eventId: 'ev-2',
          occurredAt: at,
          transactionId: 7,
          reference: 'SIG-TX-00000007',
          kind: 'invite',
          round: 0,
          signerIndexes: [0, 1],
          ownerId: 'u1',
        } as never,
        'ev-2',
      ),
    );
    expect(links.map((f) => [f.key, f.type, f.signerIndex, f.ownerId])).toEqual([
      ['ev-2:0', 'signer.link_sent', 0, 'u1'],
      ['ev-2:1', 'signer.link_sent', 1, 'u1'],
    ]);
    // Written before the owner was carried (the field decodes empty): no owner, so the record is read first.
    const older = factsOf(
      delivered(
        events.linksRequested,
        {
          eventId: 'ev-3',
          occurredAt: at,
          transactionId: 7,
          reference: 'R',
          kind: 'invite',
          round: 0,
          signerIndexes: [0],
          ownerId: '',
        },
        'ev-3',
      ),
    );
    expect(older[0]).not.toHaveProperty('ownerId');

    const signer = (from: string, to: string) =>
      factsOf(
        delivered(events.signerStateChanged, {
          eventId: 'e',
          occurredAt: at,
          transactionId: 7,
          signerIndex: 1,
          from,
          to,
          attemptsLeft: 2,
        } as never),
      );
    expect(signer('created', 'consent_accepted').map((f) => [f.type, f.signerIndex])).toEqual([['signer.consented', 1]]);
    // A failed attempt with attempts left returns the signer to consent_accepted: no second "consented".
    expect(signer('capture_accepted', 'consent_accepted')).toEqual([]);
    expect(signer('capture_accepted', 'capture_accepted')).toEqual([]);
    expect(signer('capture_accepted', 'passed').map((f) => f.type)).toEqual(['signer.verified']);
    expect(signer('capture_accepted', 'failed').map((f) => f.type)).toEqual(['signer.failed']);
    // A decline moves the signer too, but its own event (with the reason) is the one announced.
    expect(signer('created', 'declined')).toEqual([]);
    const declined = factsOf(
      delivered(events.signerDeclined, {
        eventId: 'e',
        occurredAt: at,
        transactionId: 7,
        signerIndex: 1,
        reference: 'R',
        reason: 'wrong name',
      } as never),
    );
    expect(declined.map((f) => [f.type, f.signerIndex, f.extra])).toEqual([['signer.declined', 1, { reason: 'wrong name' }]]);

    const status = (to: string) =>
      factsOf(
        delivered(events.transactionStatusChanged, {
          eventId: 'e',
          occurredAt: at,
          transactionId: 7,
          from: 'created',
          to,
        } as never),
      ).map((f) => f.type);
    expect(status('ledger_issued')).toEqual(['transaction.completed']);
    expect(status('cancelled')).toEqual(['transaction.cancelled']);
    expect(status('expired')).toEqual(['transaction.expired']);
    expect(status('consent_accepted')).toEqual([]);

    const cert = factsOf(
      delivered(events.certificateIssued, {
        eventId: 'e',
        occurredAt: at,
        transactionId: 7,
        reference: 'R',
        leafIndex: 41,
        ledgerSeal: 'seal',
      } as never),
    );
    expect(cert).toEqual([
      {
        key: 'ev-1',
        type: 'certificate.issued',
        occurredAt: at,
        transactionId: 7,
        reference: 'R',
        extra: { certificate_reference: 'R', leaf_index: 41 },
      },
    ]);
    const opened = factsOf(
      delivered(
        events.signerOpened,
        { eventId: 'e', occurredAt: at, transactionId: 7, signerIndex: 2, reference: 'R' } as never,
        'ev-9',
      ),
    );
    expect(opened).toEqual([
      { key: 'ev-9', type: 'signer.opened', occurredAt: at, transactionId: 7, reference: 'R', signerIndex: 2 },
    ]);
    const sealed = factsOf(
      delivered(events.pdfSealed, { eventId: 'e', occurredAt: at, transactionId: 7, reference: 'R', sealedAt: at } as never),
    );
    expect(sealed.map((f) => f.type)).toEqual(['signed_document.ready']);
  });

  it('makes every fact a known customer type, and nothing of an event it does not map', () => {
    expect(factsOf({ subject: events.erasureRequested.subject, data: new Uint8Array(), eventId: 'x' })).toEqual([]);
    const all = new Set<string>(WEBHOOK_EVENT_TYPES);
    expect(all.size).toBe(13);
  });
});
