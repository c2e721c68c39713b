import { describe, expect, it } from 'vitest';
import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import type { AuditRecord } from '../store/audit.repository.js';
import type { UserRecord } from '../store/user.repository.js';
import { auditConsumer } from './audit.consumer.js';

function setup() {
  const log = new Map<string, AuditRecord>();
  const counted: string[] = [];
  const handle = auditConsumer({
    audit: {
      appendOnce: async (e: AuditRecord) => {
        if (log.has(e._id)) return false;
        log.set(e._id, e);
        return true;
      },
    },
    users: {
      byId: async (id: string) => (id === 'm1' ? ({ _id: 'm1', email: 'm@example.test', org_id: 'org1' } as UserRecord) : null),
    },
    securityMetrics: { audit: { inc: (l: { action?: string }) => void counted.push(l.action ?? '') } },
  });
  return { log, counted, handle };
}
const delivered = (subject: string, eventId: string, data: Uint8Array): DeliveredEvent => ({
  subject,
  eventId,
  data,
  redelivered: false,
  deliveryCount: 1,
});
const deletion = (over: Partial<Parameters<typeof events.transactionDeleted.message.encode>[0]> = {}) =>
  events.transactionDeleted.message
    .encode({
      eventId: 'ev-del',
      occurredAt: '2026-11-29T05:00:00.000Z',
      transactionId: 42,
      reference: 'SGN-42',
      reason: 'sender',
      test: false,
      ownerId: 'org1',
      actorId: 'm1',
      ip: '198.51.100.2',
      userAgent: 'UA/3',
      ...over,
    })
    .finish();

describe('identity-audit consumer', () => {
  it('records a transaction.deleted of the transaction service in the owner’s log, by the member named, once', async () => {
    const t = setup();
    const ev = delivered(events.transactionDeleted.subject, 'ev-del', deletion());
    await t.handle(ev);
    await t.handle({ ...ev, redelivered: true, deliveryCount: 2 });
    expect([...t.log.values()]).toEqual([
      {
        _id: 'ev-del',
        account_id: 'org1',
        at: new Date('2026-11-29T05:00:00.000Z'),
        action: 'transaction.deleted',
        actor_id: 'm1',
        actor_email: 'm@example.test',
        target: '42',
        ip: '198.51.100.2',
        user_agent: 'UA/3',
        details: { reference: 'SGN-42', mode: 'live', reason: 'sender' },
      },
    ]);
    expect(t.counted).toEqual(['transaction.deleted']);
  });

  it('records a biometric erasure: the owner’s request by the member named, the retention by no one; a deletion’s own is skipped', async () => {
    const t = setup();
    const erasure = (eventId: string, o: Partial<Parameters<typeof events.erasureRequested.message.encode>[0]>) =>
      delivered(
        events.erasureRequested.subject,
        eventId,
        events.erasureRequested.message
          .encode({
            eventId,
            occurredAt: '2026-11-29T05:02:00.000Z',
            transactionId: 7,
            reason: 'sender',
            ownerId: '',
            actorId: '',
            ip: '',
            userAgent: '',
            ...o,
          })
          .finish(),
      );
    await t.handle(erasure('er-1', { ownerId: 'org1', actorId: 'm1', ip: '192.0.2.3', userAgent: 'UA/4' }));
    await t.handle(erasure('er-2', { ownerId: 'org1', reason: 'retention' }));
    await t.handle(erasure('er-3', { ownerId: '' }));
    expect(t.log.get('er-1')).toMatchObject({
      account_id: 'org1',
      action: 'transaction.biometrics_erased',
      actor_id: 'm1',
      actor_email: 'm@example.test',
      target: '7',
      ip: '192.0.2.3',
      details: { reason: 'sender' },
    });
    expect(t.log.get('er-2')).toMatchObject({ actor_id: '', actor_email: '', details: { reason: 'retention' } });
    expect(t.log.has('er-3')).toBe(false);
  });

  it('skips a deletion written before events named the owner (no log to put it in)', async () => {
    const t = setup();
    await t.handle(delivered(events.transactionDeleted.subject, 'old', deletion({ ownerId: '', actorId: '' })));
    expect(t.log.size).toBe(0);
  });

  it('appends an identity.audit.recorded entry under its event id; a redelivery appends and counts nothing', async () => {
    const t = setup();
    const data = events.auditRecorded.message
      .encode({
        eventId: 'ev-1',
        occurredAt: '2026-11-29T05:01:00.000Z',
        accountId: 'org1',
        action: 'api_key.created',
        actorId: 'm1',
        actorEmail: 'm@example.test',
        target: 'key-1',
        ip: '192.0.2.9',
        userAgent: 'UA',
        details: { name: 'CI' },
      })
      .finish();
    const ev = delivered(events.auditRecorded.subject, 'ev-1', data);
    await t.handle(ev);
    await t.handle(ev);
    expect(t.log.get('ev-1')).toMatchObject({
      account_id: 'org1',
      action: 'api_key.created',
      target: 'key-1',
      details: { name: 'CI' },
    });
    expect(t.counted).toEqual(['api_key.created']);
  });
});
