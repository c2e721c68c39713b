import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, type OutboxEntry } from '@signet/kit';
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
  sealed_at?: Date | null;
};

/** A certificate appended to the log: its index, its seal and the event announcing it. */
export type SealUpdate = { reference: string; leaf_index: number; ledger_seal: string; outbox: OutboxEntry };

const certificateSchema = new Schema(
  {
    reference: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    document_sha256: { type: String, required: true },
    certificate: { type: Object, required: true },
    ledger_seal: { type: String, default: '' },
    leaf_index: { type: Number, default: null },
    issued_at: { type: Date, required: true },
    source_event_id: { type: String, required: true },
    sealed_at: { type: Date, default: null },
    outbox: outboxField,
  },
  { collection: 'certificates', versionKey: false },
);
// One certificate per reference: a redelivered transaction.verified event cannot issue twice.
certificateSchema.index({ reference: 1 }, { unique: true });
// The sealing pass looks for certificates not yet in the log (leaf_index null), oldest first.
certificateSchema.index({ leaf_index: 1 });

export function createCertificateRepository(conn: Connection) {
  const model = conn.model('Certificate', certificateSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    async findByReference(reference: string): Promise<CertificateRecord | null> {
      return model.findOne({ reference }, { outbox: 0, _id: 0 }).lean<CertificateRecord>();
    },
    /** Inserts once; a second insert of the same reference returns false and changes nothing. */
    async insertOnce(rec: CertificateRecord, outbox: OutboxEntry[]): Promise<boolean> {
      try {
        await model.create({ ...rec, outbox });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    /** Certificates inserted but not yet appended to the log, oldest first. */
    async pending(limit: number): Promise<Pick<CertificateRecord, 'reference' | 'transaction_id' | 'certificate'>[]> {
      return model
        .find({ leaf_index: null }, { reference: 1, transaction_id: 1, certificate: 1, _id: 0 })
        .sort({ issued_at: 1, _id: 1 })
        .limit(limit)
        .lean();
    },
    /** Records each certificate's place in the log, once: a certificate already sealed is left as it is. */
    async markSealed(updates: SealUpdate[]): Promise<number> {
      if (updates.length === 0) return 0;
      const now = new Date();
      const r = await model.bulkWrite(
        updates.map((u) => ({
          updateOne: {
            filter: { reference: u.reference, leaf_index: null },
            update: { $set: { leaf_index: u.leaf_index, ledger_seal: u.ledger_seal, sealed_at: now }, $push: { outbox: u.outbox as never } },
          },
        })),
        { ordered: false },
      );
      return r.modifiedCount;
    },
    async count(filter: Partial<CertificateRecord> = {}): Promise<number> {
      return model.countDocuments(filter);
    },
  };
}

export type CertificateRepository = ReturnType<typeof createCertificateRepository>;
