import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import type { CommitmentOpenings } from '@signet/verify';
import type { Certificate } from '../domain/certificate.js';

export type CertificateRecord = {
  reference: string;
  transaction_id: number;
  document_sha256: string;
  certificate: Certificate;
  ledger_seal: string;
  leaf_index: number | null;
  issued_at: Date;
  source_event_id: string;
  /** The salt and media hashes of the certificate's commitments: only ever in the owner's bundle. */
  commitment_openings?: CommitmentOpenings;
};

const certificateSchema = new Schema(
  {
    // The reference is the key: lookups by _id are the fast path on every store (FerretDB included).
    _id: { type: String, required: true },
    reference: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    document_sha256: { type: String, required: true },
    certificate: { type: Object, required: true },
    ledger_seal: { type: String, default: '' },
    leaf_index: { type: Number, default: null },
    issued_at: { type: Date, required: true },
    source_event_id: { type: String, required: true },
    commitment_openings: { type: Object, default: undefined },
    outbox: outboxField,
  },
  { collection: 'certificates', versionKey: false },
);
// One certificate per reference: a redelivered transaction.verified event cannot issue twice.
certificateSchema.index({ reference: 1 }, { unique: true });
certificateSchema.index(...outboxIndex);

export function createCertificateRepository(conn: Connection) {
  const model = conn.model('Certificate', certificateSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    async findByReference(reference: string): Promise<CertificateRecord | null> {
      return model.findOne({ _id: reference }, { outbox: 0, _id: 0 }).lean<CertificateRecord>();
    },
    /** Inserts once; a second insert of the same reference returns false and changes nothing. */
    async insertOnce(rec: CertificateRecord, outbox: OutboxEntry[]): Promise<boolean> {
      try {
        await model.create({ _id: rec.reference, ...rec, outbox });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async count(filter: Partial<CertificateRecord> = {}): Promise<number> {
      return model.countDocuments(filter);
    },
  };
}

export type CertificateRepository = ReturnType<typeof createCertificateRepository>;
