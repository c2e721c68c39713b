import { Schema, type Connection } from 'mongoose';

export type ForensicBatchRecord = {
  session_id: string;
  batch: number;
  received_at: Date;
  ip: string;
  user_agent: string;
  events: unknown[];
};

const forensicSchema = new Schema(
  {
    session_id: { type: String, required: true },
    batch: { type: Number, required: true },
    received_at: { type: Date, required: true },
    ip: { type: String, default: '' },
    user_agent: { type: String, default: '' },
    events: { type: [Object], required: true },
  },
  { versionKey: false },
);
// One document per (session, batch number): append-only, a replayed batch number cannot overwrite.
forensicSchema.index({ session_id: 1, batch: 1 }, { unique: true });

/** The forensic log: client events in numbered batches (the number is taken on the session, takeForensicBatch). */
export function createForensicRepository(conn: Connection) {
  const forensic = conn.model('ForensicBatch', forensicSchema, 'forensic_batches');
  return {
    model: forensic,
    async init() {
      await forensic.createIndexes();
    },
    async append(doc: ForensicBatchRecord) {
      await forensic.create(doc);
    },
  };
}
export type ForensicRepository = ReturnType<typeof createForensicRepository>;
