import { Schema, type Connection } from 'mongoose';
import { asStored, createMicroBatcher, isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
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

/** At most this many certificates in one insert. */
const INSERT_BATCH_MAX = 256;

/** The write errors of an unordered insert, by the index of the document (FerretDB may give one as an object). */
function writeErrorsOf(err: unknown): Map<number, { code?: number }> | null {
  const w = (err as { writeErrors?: { index: number; code?: number }[] | { index: number; code?: number } }).writeErrors;
  if (!w) return null;
  return new Map((Array.isArray(w) ? w : [w]).map((e) => [e.index, e]));
}

/**
 * The document of a certificate as the schema stores it, built directly: a mongoose document (cast,
 * validateSync, toObject) for each certificate was 17 % of the ledger's CPU in the end-to-end bench.
 * The record is the issuing use case's own typed value; the checks below are the schema's
 * `required` ones that a type cannot express.
 */
export function storedCertificate(rec: CertificateRecord, outbox: Record<string, unknown>[]): Record<string, unknown> {
  for (const k of ['reference', 'document_sha256', 'source_event_id'] as const)
    if (typeof rec[k] !== 'string' || !rec[k]) throw new Error(`certificate record: ${k} is required`);
  if (!Number.isFinite(rec.transaction_id)) throw new Error('certificate record: transaction_id is required');
  if (!(rec.issued_at instanceof Date) || Number.isNaN(rec.issued_at.getTime()))
    throw new Error('certificate record: issued_at is required');
  if (!rec.certificate || typeof rec.certificate !== 'object') throw new Error('certificate record: certificate is required');
  return {
    _id: rec.reference,
    reference: rec.reference,
    transaction_id: rec.transaction_id,
    document_sha256: rec.document_sha256,
    certificate: rec.certificate,
    ledger_seal: rec.ledger_seal ?? '',
    leaf_index: rec.leaf_index ?? null,
    issued_at: rec.issued_at,
    source_event_id: rec.source_event_id,
    ...(rec.commitment_openings !== undefined ? { commitment_openings: rec.commitment_openings } : {}),
    outbox,
  };
}

export function createCertificateRepository(conn: Connection) {
  const model = conn.model('Certificate', certificateSchema);

  /**
   * Certificates issued while an insert runs go together in the next: one unordered insert of up to
   * INSERT_BATCH_MAX documents (the consumer issues up to 16 at a time; one insert each was 70 % of
   * the ledger's store time). Each caller gets its own outcome: inserted, a duplicate reference, or
   * the error. Documents are built by storedCertificate, in the schema's shape.
   */
  const insert = createMicroBatcher<Record<string, unknown>, boolean>(
    async (docs) => {
      try {
        await model.collection.insertMany(docs, { ordered: false });
        return docs.map(() => ({ ok: true }));
      } catch (err) {
        const errors = writeErrorsOf(err);
        if (!errors) throw err;
        return docs.map((_, i) => {
          const e = errors.get(i);
          if (!e) return { ok: true };
          return isDuplicateKey(e) ? { ok: false } : { err };
        });
      }
    },
    { max: INSERT_BATCH_MAX },
  );

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
      return insert(
        storedCertificate(
          rec,
          outbox.map((e) => asStored(model, e)),
        ),
      );
    },
    async count(filter: Partial<CertificateRecord> = {}): Promise<number> {
      return model.countDocuments(filter);
    },
  };
}

export type CertificateRepository = ReturnType<typeof createCertificateRepository>;
