import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';

export type DeliveryState = 'received' | 'done';

export type Delivery = {
  webhook_id: string;
  type: string;
  state: DeliveryState;
  /** processed, ignored, unmatched, malformed, or the domain outcome. */
  result: string | null;
  outcome: string | null;
  user_id: string | null;
  event_at: Date | null;
  received_at: Date;
  done_at: Date | null;
  /** The verified body as received, for audit and replay. */
  body: string;
  /** An unmatched delivery's user id and email (lower case), held until that user is known. */
  held_for?: { user_id: string | null; email: string | null } | null;
};

/**
 * Every verified delivery, once per webhook-id. A delivery stays `received` until its effect is
 * written; a retry of one that failed half-way finds it `received` and runs it again (the account
 * writes are idempotent by payment id and subscription state), while a retry of a finished one is a
 * no-op.
 */
const deliverySchema = new Schema(
  {
    webhook_id: { type: String, required: true },
    type: { type: String, required: true },
    state: { type: String, required: true },
    result: { type: String, default: null },
    outcome: { type: String, default: null },
    user_id: { type: String, default: null },
    event_at: { type: Date, default: null },
    received_at: { type: Date, required: true },
    done_at: { type: Date, default: null },
    body: { type: String, required: true },
    held_for: { type: { user_id: String, email: String }, default: null, _id: false },
  },
  { collection: 'webhook_deliveries', versionKey: false },
);
// webhook-id is the provider's idempotency key: a retried (or concurrently duplicated) delivery cannot be recorded twice.
deliverySchema.index({ webhook_id: 1 }, { unique: true });

export function createDeliveryRepository(conn: Connection) {
  const model = conn.model('WebhookDelivery', deliverySchema);
  return {
    model,
    async init() {
      await model.init();
    },
    async find(webhookId: string): Promise<Delivery | null> {
      return model.findOne({ webhook_id: webhookId }, { _id: 0 }).lean<Delivery>();
    },
    /** Records a delivery; false when this webhook-id was recorded before. */
    async record(d: Omit<Delivery, 'state' | 'result' | 'outcome' | 'user_id' | 'done_at'>): Promise<boolean> {
      try {
        await model.create({ ...d, state: 'received' });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async finish(
      webhookId: string,
      f: { result: string; outcome: string | null; user_id: string | null; held_for?: Delivery['held_for'] },
    ): Promise<void> {
      await model.updateOne({ webhook_id: webhookId }, { $set: { held_for: null, ...f, state: 'done', done_at: new Date() } });
    },
    /** Unmatched deliveries held for this user id or email, oldest event first. */
    async heldFor(userId: string, email: string): Promise<Delivery[]> {
      const found = await model
        .find(
          { result: 'unmatched', $or: [{ 'held_for.user_id': userId }, { 'held_for.email': email.trim().toLowerCase() }] },
          { _id: 0 },
        )
        .lean<Delivery[]>();
      const at = (d: Delivery) => (d.event_at ?? d.received_at).getTime();
      return found.sort((a, b) => at(a) - at(b));
    },
    count: (filter: Record<string, unknown> = {}) => model.countDocuments(filter),
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
