import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import type { VerdictOutcome } from '../domain/verdict.js';

/** One analysis per capture: scores, failed checks and model versions — never images or descriptors. */
export type AnalysisRecord = {
  capture_id: string;
  transaction_id: number;
  signer_index: number;
  attempt: number;
  outcome: VerdictOutcome;
  failed_checks: string[];
  checks: Record<string, unknown>;
  models: string[];
  frames_analysed: number;
  duration_ms: number;
  analysed_at: Date;
};

const analysisSchema = new Schema(
  {
    capture_id: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    signer_index: { type: Number, required: true },
    attempt: { type: Number, required: true },
    outcome: { type: String, required: true, enum: ['PASS', 'FAIL', 'ERROR'] },
    failed_checks: { type: [String], default: [] },
    checks: { type: Object, default: {} },
    models: { type: [String], default: [] },
    frames_analysed: { type: Number, default: 0 },
    duration_ms: { type: Number, default: 0 },
    analysed_at: { type: Date, required: true },
    outbox: outboxField,
  },
  { collection: 'analyses', versionKey: false },
);
// One verdict per capture: a redelivered capture event after a crash mid-analysis cannot yield two.
analysisSchema.index({ capture_id: 1 }, { unique: true });
analysisSchema.index(...outboxIndex);
// A signer's captures that ended in ERROR are counted before the next one is spared (domain/verdict.ts).
analysisSchema.index({ transaction_id: 1, signer_index: 1 });

export function createAnalysisRepository(conn: Connection) {
  const model = conn.model('Analysis', analysisSchema);
  return {
    model,
    init: () => model.init(),
    async find(captureId: string): Promise<AnalysisRecord | null> {
      return model.findOne({ capture_id: captureId }, { outbox: 0, _id: 0 }).lean<AnalysisRecord>();
    },
    /** The captures of one signer that ended in ERROR (not charged to the signer). */
    technicalErrorsOf(transactionId: number, signerIndex: number): Promise<number> {
      return model.countDocuments({ transaction_id: transactionId, signer_index: signerIndex, outcome: 'ERROR' });
    },
    /** Stores the verdict with its outbox event once; false when it already exists. */
    async insertOnce(rec: AnalysisRecord, outbox: OutboxEntry[]): Promise<boolean> {
      try {
        await model.create({ ...rec, outbox });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
  };
}

export type AnalysisRepository = ReturnType<typeof createAnalysisRepository>;
