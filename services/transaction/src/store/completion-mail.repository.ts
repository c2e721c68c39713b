import { Schema, type Connection } from 'mongoose';

/**
 * Completion mails sent: _id is `<transaction>:<recipient>` (recipient `sender`, `signer:<i>` or
 * `viewer:<i>`), written right after SMTP accepted the mail, so a redelivered pdf.sealed event finds
 * it and does not mail that recipient again.
 */
const completionMailSchema = new Schema(
  { _id: String, transaction_id: Number, recipient: String, result: String, at: Date },
  { collection: 'completion_mails', versionKey: false },
);
completionMailSchema.index({ transaction_id: 1 });

export function createCompletionMailRepository(conn: Connection) {
  const model = conn.model('CompletionMail', completionMailSchema);
  const id = (transactionId: number, recipient: string) => `${transactionId}:${recipient}`;
  return {
    model,
    async init() {
      await model.init();
    },
    /** 'sent' or 'rejected' when this recipient's mail was handled, else null. */
    async result(transactionId: number, recipient: string): Promise<string | null> {
      const doc = await model.findById(id(transactionId, recipient)).lean<{ result: string }>();
      return doc?.result ?? null;
    },
    async record(transactionId: number, recipient: string, result: 'sent' | 'rejected', at: Date): Promise<void> {
      await model.updateOne(
        { _id: id(transactionId, recipient) },
        { $setOnInsert: { transaction_id: transactionId, recipient, result, at } },
        { upsert: true },
      );
    },
  };
}

export type CompletionMailRepository = ReturnType<typeof createCompletionMailRepository>;
