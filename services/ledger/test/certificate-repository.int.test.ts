/**
 * Certificate inserts are batched (certificate.repository.ts): certificates issued at once go in one
 * unordered insert, and each caller still learns its own outcome — inserted, or a duplicate reference
 * (in the same batch or stored before) — with the record and its outbox stored as one insert each did.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectMongo } from '@signet/kit';
import { events } from '@signet/proto';
import type { Connection } from 'mongoose';
import { certificateIssuedEvent } from '../src/events/certificate-issued.publisher.js';
import { createCertificateRepository, type CertificateRecord } from '../src/store/certificate.repository.js';

const record = (reference: string, leaf: number): CertificateRecord => ({
  reference,
  transaction_id: leaf + 1,
  document_sha256: 'ab'.repeat(32),
  certificate: { version: 2, reference } as never,
  ledger_seal: `seal-${leaf}`,
  leaf_index: leaf,
  issued_at: new Date('2026-11-27T12:00:00.000Z'),
  source_event_id: randomUUID(),
});

describe('certificate repository: batched inserts', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connectMongo((inject('infra') as { MONGO_URL: string }).MONGO_URL, `t_${randomUUID().slice(0, 8)}_certs`);
  });
  afterAll(async () => {
    await conn.dropDatabase();
    await conn.close();
  });

  it('concurrent inserts each get their own outcome; duplicates in a batch or stored before insert nothing', async () => {
    const certs = createCertificateRepository(conn);
    await certs.init();
    const refs = Array.from({ length: 30 }, (_, i) => `BAT-TX-${String(i).padStart(8, '0')}`);
    expect(await certs.insertOnce(record(refs[0]!, 0), [])).toBe(true);
    const calls = [...refs, refs[3]!, refs[0]!, refs[17]!].map((r, i) => {
      const leaf = refs.indexOf(r);
      const outbox = [
        certificateIssuedEvent({ transactionId: leaf + 1, reference: r, leafIndex: leaf, ledgerSeal: `seal-${leaf}` }),
      ];
      return certs.insertOnce({ ...record(r, leaf), source_event_id: `call-${i}` }, outbox);
    });
    const outcomes = await Promise.all(calls);
    // refs[0] was stored before; the first call of each other reference inserts, its repeat does not.
    expect(outcomes).toEqual([false, ...refs.slice(1).map(() => true), false, false, false]);
    expect(await certs.count()).toBe(30);
    const r17 = await certs.findByReference(refs[17]!);
    expect(r17).toMatchObject({ reference: refs[17], leaf_index: 17, ledger_seal: 'seal-17', source_event_id: 'call-17' });
    const raw = await conn.collection('certificates').findOne({ _id: refs[17] as never });
    // The stored document is what create() stored: no absent field written as null.
    expect(Object.keys(raw!).sort()).toEqual(
      [
        '_id',
        'certificate',
        'document_sha256',
        'issued_at',
        'leaf_index',
        'ledger_seal',
        'outbox',
        'reference',
        'source_event_id',
        'transaction_id',
      ].sort(),
    );
    expect(raw!.issued_at).toBeInstanceOf(Date);
    expect(raw?.outbox).toHaveLength(1);
    expect(raw?.outbox[0]).toMatchObject({ subject: events.certificateIssued.subject });
    expect(Buffer.from(raw!.outbox[0].payload.buffer).length).toBeGreaterThan(0);
  });
});
