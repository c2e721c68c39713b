import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, connectMongo, publishEvent, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import type { Connection } from 'mongoose';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { parseConfig } from '@signet/kit';
import { ledgerConfigSchema } from '../src/config.js';
import { startLedger } from '../src/app.js';
import { createCertificateRepository } from '../src/store/certificate.repository.js';

const root = join(import.meta.dirname, '../../..');

function verifiedEvent(reference: string) {
  const eventId = randomUUID();
  return {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: new Date().toISOString(),
        transactionId: 42,
        reference,
        documentSha256: 'ab'.repeat(32),
        issuerName: 'Acme Ltd',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            verificationMode: 'biometric',
            assurance: 'live',
            videoSha256: 'v'.repeat(64),
            frameSha256: 'f'.repeat(64),
            referenceSha256: 'r'.repeat(64),
            verifiedAt: '2026-11-25T10:00:00.000Z',
          },
        ],
      }),
    ).finish(),
  };
}

async function subjectMessages(bus: Bus, subject: string) {
  const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [subject] });
  const out: Uint8Array[] = [];
  const info = await bus.jsm.streams.info(STREAM);
  if (info.state.messages === 0) return out;
  const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
  for await (const m of batch) out.push(m.data);
  return out;
}

describe('ledger consumer of signet.transaction.verified', () => {
  let bus: Bus;
  let conn: Connection;
  const db = `t_${randomUUID().slice(0, 8)}_ledger_crash`;

  beforeAll(async () => {
    bus = await connectBus(infra().NATS_URL, 'test');
    conn = await connectMongo(infra().MONGO_URL, db);
    // A clean durable for this test, and no verified events left by earlier test files: a new
    // durable delivers the whole subject, and the fixture must die on this test's event, not an old one.
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
  });
  afterAll(async () => {
    await bus.nc.drain();
    await conn.close();
  });

  it('killed after its write and before its ack, the redelivered event changes nothing twice', async () => {
    const reference = `TST-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const secrets = testSecrets(); // one log key for the killed process and its successor
    const env = { ...process.env, ...infra(), ...secrets, MONGO_DB: db };

    // 1. The consumer process writes, then dies before acking.
    const child = spawn(
      process.execPath,
      ['--conditions=@signet/source', '--import', 'tsx', join(import.meta.dirname, 'fixtures/crash-after-write.ts')],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, s) => resolve(s)));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await eventually(async () => out.includes('consuming'), 30_000);
    const ev = verifiedEvent(reference);
    await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });
    const exit = await exited;
    expect(exit).toBe('SIGKILL');
    expect(out).toContain('written');

    const certs = createCertificateRepository(conn);
    expect(await certs.count({ reference })).toBe(1);
    const info = await bus.jsm.consumers.info(STREAM, 'ledger-transaction-verified');
    expect(info.num_ack_pending + info.num_pending).toBe(1); // the message was never acked

    // 2. A fresh ledger process takes the redelivery.
    const cfg = parseConfig(ledgerConfigSchema, {
      ...infra(),
      ...secrets,
      MONGO_DB: db,
      GRPC_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
    });
    const ledger = await startLedger(cfg, { ackWaitMs: 1000 });
    try {
      await eventually(async () => {
        const i = await bus.jsm.consumers.info(STREAM, 'ledger-transaction-verified');
        return i.num_ack_pending + i.num_pending === 0;
      }, 20_000);
      const metrics = await ledger.metrics.registry.getSingleMetricAsString('signet_ledger_certificates_issued_total');
      expect(metrics).toMatch(/result="duplicate"[^\n]* 1/);
      expect(metrics).toMatch(/result="issued"[^\n]* 0$/m); // exported at 0 from the start, never counted here
      expect(await ledger.metrics.registry.getSingleMetricAsString('signet_events_redelivered_total')).toMatch(/ 1\n?$/m);
      expect(await certs.count({ reference })).toBe(1);

      // 3. The fresh process appended it to the log once, and published exactly one
      //    certificate.issued event for it through the outbox.
      await eventually(async () => {
        const doc = await certs.model
          .findOne({ reference }, { outbox: 1, leaf_index: 1 })
          .lean<{ outbox: unknown[]; leaf_index: number | null }>();
        return doc?.leaf_index !== null && doc?.outbox.length === 0;
      });
      expect(await conn.collection('ledger_leaves').countDocuments({ reference })).toBe(1);
      // The successor's sealing pass covered the leaf the killed process claimed with a checkpoint.
      await eventually(async () => (await ledger.log.head()).size === 1);
      const issued = (await subjectMessages(bus, events.certificateIssued.subject))
        .map((d) => eventsV1.CertificateIssued.decode(d))
        .filter((e) => e.reference === reference);
      expect(issued).toHaveLength(1);
      const rec = await certs.findByReference(reference);
      expect(issued[0]).toMatchObject({ leafIndex: rec!.leaf_index, ledgerSeal: rec!.ledger_seal });
      expect(rec!.ledger_seal).toMatch(/^v1\.[0-9a-f]{8}\.\d+\./);
    } finally {
      await ledger.stop();
    }
  });
});
