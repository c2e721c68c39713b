import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { isDuplicateKey, outboxEvent, outboxField, outboxIndex } from '@signet/kit';
import { events } from '@signet/proto';
import type { SignerTrail } from '../pdf/audit-trail.js';

/** One certificate's signed PDF: pending until sealed (with its object key), then never changed. */
export type SignedPdfRecord = {
  reference: string;
  transaction_id: number;
  document_key: string;
  document_name: string;
  /** The signers' full e-mails for the audit trail; removed once the PDF is sealed. */
  signer_emails: string[];
  /** What each signer's ceremony recorded (addresses, browsers, times); removed once sealed, like the e-mails. */
  trails?: SignerTrail[];
  /** The signers' field values to draw after the original (issue 33; JSON, pdf/fields-stamp.ts); removed once sealed. */
  fields_json?: string;
  /**
   * deleted: its transaction was deleted before it was sealed (usecases/delete-signed-pdfs.ts);
   * failed: it can never be sealed (usecases/seal-signed-pdfs.ts), with the reason in `failure`.
   */
  status: 'pending' | 'sealed' | 'deleted' | 'failed';
  failure?: string | null;
  attempts: number;
  next_attempt_at: Date;
  object_key: string | null;
  size: number | null;
  /** SHA-256 (hex) of the stored signed PDF, so GET /api/verify finds the certificate by it (absent on PDFs sealed before). */
  sha256?: string | null;
  /** The SHA-256 of each version served before a re-timestamping replaced it (B-LTA renewals), oldest first. */
  sha256_before?: string[];
  /** The audit-trail PDF stored beside it (absent on PDFs sealed before it existed). */
  audit_object_key?: string | null;
  audit_size?: number | null;
  sealed_at: Date | null;
};

const signedPdfSchema = new Schema(
  {
    _id: { type: String, required: true }, // the certificate reference
    reference: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    document_key: { type: String, required: true },
    document_name: { type: String, default: '' },
    signer_emails: { type: [String], default: undefined },
    trails: { type: [Object], default: undefined },
    fields_json: { type: String, default: undefined },
    status: { type: String, required: true },
    attempts: { type: Number, default: 0 },
    next_attempt_at: { type: Date, required: true },
    object_key: { type: String, default: null },
    size: { type: Number, default: null },
    sha256: { type: String, default: null },
    audit_object_key: { type: String, default: null },
    audit_size: { type: Number, default: null },
    sealed_at: { type: Date, default: null },
    failure: { type: String, default: null },
    outbox: outboxField,
  },
  { collection: 'signed_pdfs', versionKey: false },
);
// The sealing job's scan: pending records whose next attempt is due, oldest first.
signedPdfSchema.index({ status: 1, next_attempt_at: 1 });
signedPdfSchema.index(...outboxIndex);

type SignedPdfModel = Model<InferSchemaType<typeof signedPdfSchema>>;

/** The sealing queue: a record per certificate, claimed under a lease, retried later. */
function queueOps(model: SignedPdfModel) {
  return {
    /** Records the PDF to seal, once per reference (a redelivered event changes nothing). */
    async enqueue(
      rec: Omit<SignedPdfRecord, 'status' | 'attempts' | 'object_key' | 'size' | 'audit_object_key' | 'audit_size' | 'sealed_at'>,
    ): Promise<boolean> {
      try {
        await model.create({ _id: rec.reference, ...rec, status: 'pending', attempts: 0 });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    /** Takes one due record for `leaseMs` (its next attempt moves past the lease), or null. */
    async claimDue(now: Date, leaseMs: number): Promise<SignedPdfRecord | null> {
      // No projection: FerretDB's findAndModify does not take one.
      const doc = await model
        .findOneAndUpdate(
          { status: 'pending', next_attempt_at: { $lte: now } },
          { $set: { next_attempt_at: new Date(now.getTime() + leaseMs) } },
          { sort: { next_attempt_at: 1 }, new: true },
        )
        .lean<SignedPdfRecord & { _id?: string }>();
      if (!doc) return null;
      const { _id, ...rec } = doc;
      return rec;
    },
    async retryAt(reference: string, at: Date, attempts: number): Promise<void> {
      await model.updateOne({ _id: reference, status: 'pending' }, { $set: { next_attempt_at: at, attempts } });
    },
  };
}

/** How a record ends: sealed or given up, each with its outbox entry in the same update. */
function outcomeOps(model: SignedPdfModel) {
  return {
    /**
     * Sealed: the object keys, and in the same update the pdf.sealed outbox entry (the relay publishes
     * it; the transaction service mails the download links). The e-mails and trails go: they are in the PDF.
     */
    async markSealed(
      rec: Pick<SignedPdfRecord, 'reference' | 'transaction_id'>,
      sealed: { object_key: string; size: number; sha256: string; audit_object_key: string; audit_size: number; sealed_at: Date },
    ): Promise<void> {
      const entry = outboxEvent(events.pdfSealed, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec.transaction_id,
        reference: rec.reference,
        sealedAt: sealed.sealed_at.toISOString(),
      }));
      await model.updateOne(
        { _id: rec.reference, status: 'pending' },
        {
          $set: { status: 'sealed', ...sealed },
          $unset: { signer_emails: 1, trails: 1, fields_json: 1 },
          $push: { outbox: { $each: [entry] } },
        },
      );
    },
    /**
     * Given up for good (never claimed again): the reason, and in the same update the pdf.failed outbox
     * entry (the transaction service tells the sender). False when it was no longer pending.
     */
    async markFailed(rec: Pick<SignedPdfRecord, 'reference' | 'transaction_id'>, failure: string, at: Date): Promise<boolean> {
      const entry = outboxEvent(events.pdfSealFailed, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: rec.transaction_id,
        reference: rec.reference,
        reason: failure,
        failedAt: at.toISOString(),
      }));
      const r = await model.updateOne(
        { _id: rec.reference, status: 'pending' },
        { $set: { status: 'failed', failure }, $push: { outbox: { $each: [entry] } } },
      );
      return r.modifiedCount === 1;
    },
  };
}

/** Reading a record, and a deleted transaction's record marked or dropped. */
function recordOps(model: SignedPdfModel) {
  return {
    /**
     * A pending record whose transaction was deleted: never claimed or sealed again (claimDue,
     * retryAt and markSealed all require pending). The record as it was, or null when not pending.
     */
    async markDeleted(reference: string): Promise<SignedPdfRecord | null> {
      const doc = await model
        .findOneAndUpdate({ _id: reference, status: 'pending' }, { $set: { status: 'deleted' } })
        .lean<SignedPdfRecord & { _id?: string }>();
      return doc ? { ...doc, status: 'deleted' } : null;
    },
    /** Drops the record of a deleted transaction's PDFs (they are deleted first); none is no error. */
    async remove(reference: string): Promise<void> {
      await model.deleteOne({ _id: reference });
    },
    async find(reference: string): Promise<SignedPdfRecord | null> {
      return model.findOne({ _id: reference }, { _id: 0, outbox: 0 }).lean<SignedPdfRecord>();
    },
  };
}

export function createSignedPdfRepository(conn: Connection) {
  const model = conn.model('SignedPdf', signedPdfSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    ...queueOps(model),
    ...outcomeOps(model),
    ...recordOps(model),
  };
}

export type SignedPdfRepository = ReturnType<typeof createSignedPdfRepository>;
