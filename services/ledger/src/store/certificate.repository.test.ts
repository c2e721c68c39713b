import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { createCertificateRepository, storedCertificate, type CertificateRecord } from './certificate.repository.js';
import { asStored, type OutboxEntry } from '@signet/kit';

const { BSON } = mongoose.mongo;

const record = (over: Partial<CertificateRecord> = {}): CertificateRecord => ({
  reference: 'SGN-7F3K-2Q9M',
  transaction_id: 42,
  document_sha256: 'ab'.repeat(32),
  certificate: { version: 1, signer: { name: 'Ada', checks: ['face', 'words'] }, issued_at: '2026-11-27T10:00:00.000Z' } as never,
  ledger_seal: '',
  leaf_index: null,
  issued_at: new Date('2026-11-27T10:00:00.000Z'),
  source_event_id: 'evt-1',
  ...over,
});

const entry = (trace: Record<string, string> = {}): OutboxEntry => ({
  event_id: 'e5a3c1c0-0000-4000-8000-000000000001',
  subject: 'certificate.issued',
  payload: Buffer.from([1, 2, 3]),
  occurred_at: new Date('2026-11-27T10:00:01.000Z'),
  trace,
});

describe('storedCertificate', () => {
  // The ledger inserts certificates through the driver; each must be the document the schema would store.
  const model = createCertificateRepository(mongoose.createConnection()).model;
  const viaSchema = (rec: CertificateRecord, outbox: OutboxEntry[]) =>
    new model({ _id: rec.reference, ...rec, outbox }).toObject({ depopulate: true });

  it('builds what the schema stores, with and without openings and a trace', () => {
    for (const [rec, outbox] of [
      [record(), [entry()]],
      [
        record({ commitment_openings: { salt: 'c2FsdA', media: { video: 'ff'.repeat(32) } } as never, leaf_index: 7 }),
        [entry({ traceparent: '00-x' })],
      ],
      [record({ ledger_seal: 'seal' }), []],
    ] as const) {
      const built = storedCertificate(
        rec,
        outbox.map((e) => asStored(model, e)),
      );
      const schema = viaSchema(rec, [...outbox]);
      // As stored: the same BSON document, and each outbox entry byte for byte (a $pullAll matches it so).
      expect(BSON.deserialize(BSON.serialize(built))).toEqual(BSON.deserialize(BSON.serialize(schema)));
      (built.outbox as object[]).forEach((e, i) =>
        expect(Buffer.from(BSON.serialize(e)).equals(Buffer.from(BSON.serialize((schema.outbox as object[])[i])))).toBe(true),
      );
      // Openings only when the record has them: an undefined one would be stored as null.
      expect('commitment_openings' in built).toBe(rec.commitment_openings !== undefined);
    }
  });

  it('refuses a record without what the schema requires', () => {
    for (const bad of [
      record({ reference: '' }),
      record({ document_sha256: undefined as never }),
      record({ source_event_id: '' }),
      record({ transaction_id: Number.NaN }),
      record({ issued_at: new Date('x') }),
      record({ certificate: null as never }),
    ])
      expect(() => storedCertificate(bad, [])).toThrow(/certificate record/);
  });
});
