import { outboxEvent, outboxField, outboxIndex } from '@signet/kit';
import { events } from '@signet/proto';
import { Schema, type Connection } from 'mongoose';

const schema = new Schema(
  {
    // `<transaction id>:<signer index>`: one per signer, so the first open is recorded once.
    _id: String,
    at: { type: Date, required: true },
    outbox: outboxField,
  },
  { versionKey: false, collection: 'signer_opens' },
);
schema.index(...outboxIndex);

/**
 * When each signer first opened their link, with the signet.transaction.signer.opened event on the
 * same document's outbox (its own relay publishes it). Kept apart from the transaction record so
 * the hot token resolution reads one small document and writes only the first time.
 */
export function createSignerOpenRepository(conn: Connection) {
  const model = conn.model('SignerOpen', schema);
  return {
    model,
    async init() {
      await model.createIndexes();
    },
    /** Records the first open of a signer's link; true when this call was the first (its event is on the outbox). */
    async recordFirstOpen(tx: { id: number; reference: string }, signerIndex: number, at: Date): Promise<string | null> {
      const _id = `${tx.id}:${signerIndex}`;
      if (await model.exists({ _id })) return null;
      const entry = outboxEvent(events.signerOpened, (m) => ({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: tx.id,
        signerIndex,
        reference: tx.reference,
      }));
      const r = await model.updateOne({ _id }, { $setOnInsert: { at, outbox: [entry] } }, { upsert: true });
      return r.upsertedCount === 1 ? _id : null;
    },
  };
}
export type SignerOpenRepository = ReturnType<typeof createSignerOpenRepository>;
