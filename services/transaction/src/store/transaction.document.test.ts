import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { asStored, type OutboxEntry } from '@signet/kit';
import { validateFields } from '../domain/creation.js';
import { initialTimers } from '../domain/lifecycle.js';
import { newRecord } from '../usecases/creation-record.js';
import { creationOutbox } from '../events/transaction.publisher.js';
import type { TransactionRecord } from './transaction.schema.js';
import { transactionSchema } from './transaction.schema.js';
import { storedTransaction } from './transaction.document.js';

const { BSON } = mongoose.mongo;

const now = new Date('2026-11-27T10:00:00.000Z');
const cfg = { PUBLIC_BASE_URL: 'http://x', MAX_ATTEMPTS: 3, BIOMETRIC_RETENTION_DAYS: 30, BIOMETRIC_RETENTION_MAX_DAYS: 365 };
const base = {
  signerName: 'Ada',
  signerEmail: 'ada@example.com',
  signerEmails: [] as string[],
  attestationType: '',
  documentName: 'a.pdf',
  signers: [],
};
const timers = (reminders: number) =>
  initialTimers(
    now,
    {},
    {
      expiryMs: 30 * 86_400_000,
      maxExpiryMs: 365 * 86_400_000,
      reminderFirstMs: 86_400_000,
      reminderEveryMs: 86_400_000,
      reminderMax: reminders,
    },
  );
const doc = { key: '2026-11/doc', sha256: 'a'.repeat(64), size: 1234 };

/** Records as a creation makes them (newRecord): one signer, a list with an approver and a viewer, test mode. */
function records(): TransactionRecord[] {
  const one = validateFields(base, new Set(['reference']));
  const listed = validateFields(
    {
      ...base,
      signerName: '',
      signerEmail: '',
      signers: [
        { name: 'Ada', email: 'ada@example.com', role: '', order: 1, verification: '', webauthn: true },
        { name: 'Bo', email: 'bo@example.com', role: 'approver', order: 2, verification: 'liveness_only', webauthn: false },
        { name: 'Cy', email: 'cy@example.com', role: 'viewer', order: 3, verification: '', webauthn: false },
      ],
    },
    new Set([0]),
  );
  const deps = { clock: () => now, cfg };
  const ref = new Map([[0, { key: '2026-11/ref', sha256: 'b'.repeat(64) }]]);
  return [
    newRecord(
      deps,
      7,
      'SIG-TX-00000007',
      { ownerId: 'u1', orgName: 'Org', idempotencyKey: '', timers: timers(3) },
      one,
      doc,
      ref,
      undefined,
    ),
    newRecord(
      deps,
      8,
      'SIG-TX-00000008',
      { ownerId: 'u2', orgName: '', idempotencyKey: 'k', senderEmail: 's@example.com', createdBy: 'm2', timers: timers(0) },
      listed,
      doc,
      ref,
      90,
      // Fields on the document (issue 33): kept as plain values.
      [
        { id: 's', type: 'signature', signer: 0, required: true, places: [{ page: 1, x: 1.5, y: 2, width: 3, height: 4 }] },
        {
          id: 'd',
          type: 'dropdown',
          signer: 1,
          required: false,
          anchor: '{{d}}',
          places: [{ page: 2, x: 10, y: 20, width: 30, height: 40 }],
          options: ['a', 'b'],
          value: 'a',
        },
      ],
    ),
    newRecord(deps, 9, 'TST-TX-00000009', { ownerId: 'u3', orgName: 'Org', idempotencyKey: '', test: true }, one, doc, ref, 10),
  ];
}

describe('storedTransaction', () => {
  // The creation inserts the record through the driver; it must be the document the schema would store.
  const model = mongoose.createConnection().model('Transaction', transactionSchema);
  const viaSchema = (rec: TransactionRecord, outbox: OutboxEntry[]) =>
    new model({ ...rec, outbox }).toObject({ depopulate: true }) as Record<string, unknown>;

  it('builds what the schema stores for the records a creation makes, outbox entries byte for byte', () => {
    for (const rec of records()) {
      for (const outbox of [
        creationOutbox(rec),
        [],
        creationOutbox(rec).map((e) => ({ ...e, trace: { traceparent: '00-x' } })),
      ]) {
        const built = storedTransaction(
          rec,
          outbox.map((e) => asStored(model, e)),
        );
        const schema = viaSchema(rec, outbox);
        // The same BSON document, field order included, and each outbox entry as the relay's $pullAll matches it.
        expect(Buffer.from(BSON.serialize(built)).equals(Buffer.from(BSON.serialize(schema)))).toBe(true);
        expect(BSON.deserialize(BSON.serialize(built))).toEqual(BSON.deserialize(BSON.serialize(schema)));
        (built.outbox as object[]).forEach((e, i) =>
          expect(Buffer.from(BSON.serialize(e)).equals(Buffer.from(BSON.serialize((schema.outbox as object[])[i]!)))).toBe(true),
        );
      }
    }
  });

  it('fills the schema defaults a record leaves out, as the schema does', () => {
    const rec = records()[0]!;
    const sparse = {
      ...rec,
      issuer_name: undefined,
      certificate_issued: undefined,
      verified_at: undefined,
      version: undefined,
      expires_at: undefined,
      reminders_sent: undefined,
      signers: rec.signers.map((s) => ({
        ...s,
        capture_id: undefined,
        attempt: undefined,
        role: undefined,
        webauthn: undefined,
      })),
    } as unknown as TransactionRecord;
    const built = storedTransaction(sparse, []);
    expect(Buffer.from(BSON.serialize(built)).equals(Buffer.from(BSON.serialize(viaSchema(sparse, []))))).toBe(true);
  });

  it('refuses a record without what the schema requires, and what only later changes write', () => {
    const rec = records()[0]!;
    for (const bad of [
      { ...rec, owner_id: '' },
      { ...rec, reference: undefined },
      { ...rec, status: '' },
      { ...rec, attestation_type: undefined },
      { ...rec, created_at: new Date('x') },
      { ...rec, _id: Number.NaN },
    ] as TransactionRecord[]) {
      expect(() => storedTransaction(bad, [])).toThrow(/transaction record/);
      // The schema refuses the same records (the _id cast aside, which fails on insert).
      if (!Number.isNaN(bad._id)) expect(new model(bad).validateSync()).toBeDefined();
    }
    for (const later of [
      { ...rec, legal_hold: { since: now, reason: 'r', by: 'u' } },
      { ...rec, erasure_request: { by: 'a', at: now, due: now } },
      { ...rec, signers: [{ ...rec.signers[0]!, trail: { ip: '1' } }] },
    ] as TransactionRecord[])
      expect(() => storedTransaction(later, [])).toThrow(/new record/);
  });
});
