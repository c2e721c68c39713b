/**
 * The account audit log's durability (issue 34 item 3) on the real store and bus (FerretDB, NATS):
 * an entry rides on the action's own single-document write as an `identity.audit.recorded` outbox
 * event, so a write that does not happen leaves neither the action nor its entry; after a "crash"
 * between the write and the log (no relay ran) the entry still arrives, once, through the relay
 * and the identity-audit consumer; a redelivery appends nothing. The invitation's code is in no
 * event: its mail is sent from the `member.invited` event with the code sealed on the invitation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import {
  connectBus,
  connectMongo,
  createLogger,
  createOutboxRelay,
  Metrics,
  startConsumer,
  type Bus,
  type DeliveredEvent,
} from '@signet/kit';
import { events } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';
import { clearBusOnce, infra } from '../../../test/harness/services.js';
import { createSecretBox } from '../src/domain/secrets.js';
import { AUDIT_CONSUMER, auditConsumer } from '../src/events/audit.consumer.js';
import { auditRecordedEvent } from '../src/events/audit-recorded.publisher.js';
import { createApiKeyRepository } from '../src/store/api-key.repository.js';
import { createAuditRepository } from '../src/store/audit.repository.js';
import { createInvitationRepository } from '../src/store/invitation.repository.js';
import { createUserRepository } from '../src/store/user.repository.js';
import { createApiKey } from '../src/usecases/create-api-key.js';
import { invitationAad, inviteMember } from '../src/usecases/invite-member.js';
import { revokeApiKey } from '../src/usecases/revoke-api-key.js';
import { fakeMetrics } from './fakes.js';

const CLIENT = { ip: '203.0.113.7', userAgent: 'AuditDurable/1.0' };

describe('audit entries written with their action (real FerretDB and NATS)', () => {
  let conn: Connection;
  let bus: Bus;
  let users: ReturnType<typeof createUserRepository>;
  let apiKeys: ReturnType<typeof createApiKeyRepository>;
  let invitations: ReturnType<typeof createInvitationRepository>;
  let audit: ReturnType<typeof createAuditRepository>;
  const counted: string[] = [];
  const securityMetrics = { audit: { inc: (l: { action?: string }) => void counted.push(l.action ?? '') } };
  const raw = (collection: string, id: string) => conn.db!.collection(collection).findOne({ _id: id as never });

  beforeAll(async () => {
    await clearBusOnce(infra().NATS_URL);
    conn = await connectMongo(infra().MONGO_URL, `t_${randomBytes(4).toString('hex')}_identity_audit`);
    bus = await connectBus(infra().NATS_URL, 'audit-durable-test');
    users = createUserRepository(conn);
    apiKeys = createApiKeyRepository(conn);
    invitations = createInvitationRepository(conn);
    audit = createAuditRepository(conn);
    await Promise.all([users.init(), apiKeys.init(), invitations.init(), audit.init()]);
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await conn?.close();
  });

  async function owner(tag: string) {
    const email = `${tag}-${randomBytes(4).toString('hex')}@example.test`;
    const u = await users.create(
      {
        email,
        name: 'Owner',
        org_name: 'Durable Ltd',
        password_hash: 'unused',
        session_ttl_hours: 24,
        created_at: new Date(),
      } as never,
      () => [],
    );
    return u!;
  }
  const deps = () => ({ users, apiKeys, metrics: fakeMetrics().metrics, now: Date.now, onUserCreated: () => undefined });

  it('a write that does not happen carries no entry; one that happens carries exactly its own', async () => {
    const o = await owner('atomic');
    const { key } = await createApiKey(deps(), { userId: o._id, name: 'CI', client: CLIENT });
    const stored = await raw('api_keys', key._id);
    expect(stored!.outbox).toHaveLength(1);
    expect(stored!.outbox[0].subject).toBe('signet.identity.audit.recorded');

    // The same prefix again: the unique index refuses the insert, so neither the key nor its entry exists.
    const entry = auditRecordedEvent({ action: 'api_key.created', actor: o, client: CLIENT, target: 'dup' });
    await expect(apiKeys.create(o._id, 'dup', key.prefix, 'h', 'live', { orgId: o._id }, () => [entry])).rejects.toThrow();
    const outboxes = await conn.db!.collection('api_keys').find({ 'outbox.event_id': entry.event_id }).toArray();
    expect(outboxes).toHaveLength(0);

    // A revocation whose condition fails (another organisation's key) writes neither the revocation nor its entry.
    const stranger = await owner('stranger');
    const foreign = auditRecordedEvent({ action: 'api_key.revoked', actor: stranger, client: CLIENT, target: key._id });
    expect(await apiKeys.revokeInOrg(stranger._id, key._id, [foreign])).toBe(false);
    const untouched = await raw('api_keys', key._id);
    expect(untouched!.revoked_at).toBeNull();
    expect(untouched!.outbox.map((e: { event_id: string }) => e.event_id)).toEqual([stored!.outbox[0].event_id]);

    // The revocation by a member of the organisation: the key and its entry in one update.
    await revokeApiKey(deps(), { userId: o._id, id: key._id, client: CLIENT });
    const revoked = await raw('api_keys', key._id);
    expect(revoked!.revoked_at).toBeInstanceOf(Date);
    expect(revoked!.outbox).toHaveLength(2);
    // Never the key: the entries carry its name and prefix only.
    const payloads = Buffer.concat(
      revoked!.outbox.map((e: { payload: { buffer: Uint8Array } }) => Buffer.from(e.payload.buffer)),
    );
    expect(payloads.includes(Buffer.from(key.hash))).toBe(false);
  });

  it('after a crash between the write and the log the entries still arrive, once, and a redelivery appends nothing', async () => {
    const o = await owner('crash');
    const { key } = await createApiKey(deps(), { userId: o._id, name: 'Deploy', client: CLIENT });
    await revokeApiKey(deps(), { userId: o._id, id: key._id, client: CLIENT });
    // "Crashed": no relay ran, the entries wait on the key's document and the log has none.
    expect(await audit.page({ accountId: o._id }, 10)).toHaveLength(0);

    const metrics = new Metrics('identity');
    const logger = createLogger('test', 'silent');
    const delivered: DeliveredEvent[] = [];
    const handler = auditConsumer({ audit, users, securityMetrics });
    const consumer = await startConsumer(
      bus,
      AUDIT_CONSUMER,
      async (ev) => {
        delivered.push(ev);
        await handler(ev);
      },
      { metrics, logger },
    );
    const relay = createOutboxRelay(bus, [apiKeys.model], { metrics, logger, lagOf: [], pollMs: 200 });
    try {
      const log = await eventually(async () => {
        const page = await audit.page({ accountId: o._id }, 10);
        return page.length === 2 ? page : undefined;
      });
      expect(log.map((e) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
      expect(log[1]).toMatchObject({
        actor_id: o._id,
        actor_email: o.email,
        target: key._id,
        ip: CLIENT.ip,
        user_agent: CLIENT.userAgent,
        details: { name: 'Deploy', prefix: key.prefix, mode: 'live' },
      });
      // The entries' ids are the events' ids; the document's outbox is empty once published.
      expect((await raw('api_keys', key._id))!.outbox).toHaveLength(0);
      // A redelivery of every event appends nothing and is not counted again.
      const before = counted.length;
      for (const ev of delivered.filter((d) => d.subject === events.auditRecorded.subject))
        await handler({ ...ev, redelivered: true });
      expect(await audit.page({ accountId: o._id }, 10)).toHaveLength(2);
      expect(counted.length).toBe(before);
      expect(counted).toEqual(expect.arrayContaining(['api_key.created', 'api_key.revoked']));
    } finally {
      relay.stop();
      await consumer.stop();
    }
  });

  it('an invitation is written with its events and its sealed code; no event carries the code', async () => {
    const o = await owner('invite');
    const box = createSecretBox(randomBytes(32).toString('hex'));
    const inv = await inviteMember(
      { users, invitations, box, metrics: fakeMetrics().metrics, now: Date.now, onUserCreated: () => undefined },
      {
        actorId: o._id,
        email: 'newcomer@example.test',
        role: 'sender',
        acceptUrl: 'https://app.example/join#code=',
        client: CLIENT,
      },
    );
    const doc = await raw('invitations', inv._id);
    expect(doc!.outbox.map((e: { subject: string }) => e.subject)).toEqual([
      'signet.identity.member.invited',
      'signet.identity.audit.recorded',
    ]);
    const code = box.open(doc!.mail_sealed, invitationAad(inv._id));
    expect(createHash('sha256').update(code).digest('hex')).toBe(doc!.code_hash);
    for (const e of doc!.outbox as { payload: { buffer: Uint8Array } }[]) {
      const bytes = Buffer.from(e.payload.buffer);
      expect(bytes.includes(Buffer.from(code))).toBe(false);
      expect(bytes.includes(Buffer.from(doc!.mail_sealed))).toBe(false);
    }
    const invited = events.memberInvited.message.decode(Buffer.from(doc!.outbox[0].payload.buffer));
    expect(invited).toMatchObject({ orgId: o._id, invitationId: inv._id, email: 'newcomer@example.test' });
    // Sealed for this invitation only.
    expect(() => box.open(doc!.mail_sealed, invitationAad('another'))).toThrow();
  });
});
