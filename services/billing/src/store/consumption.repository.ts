import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';
import { CREDIT_PERIOD } from '../domain/plans.js';

export type Source = 'quota' | 'credit';

export type Consumption = {
  user_id: string;
  consumption_id: string;
  source: Source;
  /** The usage month (`YYYY-MM`) for quota; `credit` for credits. */
  period: string;
  slot: number;
  created_at: Date;
};

/**
 * Each consumed signature holds a numbered slot: quota slots 0…limit-1 of the month, credit slots
 * 0…granted-1. Two unique indexes make one insert the whole atomic step: a slot is taken once (so
 * 50 concurrent calls on a Free account fill slots 0, 1, 2 and no more), and a consumption id is
 * used once (so a retried call is a no-op). A refund removes the slot, giving it back.
 */
const consumptionSchema = new Schema(
  {
    user_id: { type: String, required: true },
    consumption_id: { type: String, required: true },
    source: { type: String, required: true },
    period: { type: String, required: true },
    slot: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'consumptions', versionKey: false },
);
// Idempotency: one consumption per (user, consumption id).
consumptionSchema.index({ user_id: 1, consumption_id: 1 }, { unique: true });
// The quota/credit limit: each slot of a period is taken at most once.
consumptionSchema.index({ user_id: 1, source: 1, period: 1, slot: 1 }, { unique: true });

/** Refunds, once per consumption id: a refund recorded here stays answered `refunded: true`. */
const refundSchema = new Schema(
  {
    user_id: { type: String, required: true },
    consumption_id: { type: String, required: true },
    source: { type: String, required: true },
    period: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'refunds', versionKey: false },
);
// Idempotency of RefundSignature.
refundSchema.index({ user_id: 1, consumption_id: 1 }, { unique: true });

export function createConsumptionRepository(conn: Connection) {
  const model = conn.model('Consumption', consumptionSchema);
  const refunds = conn.model('Refund', refundSchema);
  const key = (userId: string, id: string) => ({ user_id: userId, consumption_id: id });
  return {
    model,
    refunds,
    async init() {
      await model.init();
      await refunds.init();
    },
    async find(userId: string, id: string): Promise<Consumption | null> {
      return model.findOne(key(userId, id), { _id: 0 }).lean<Consumption>();
    },
    async findRefund(userId: string, id: string): Promise<Omit<Consumption, 'slot'> | null> {
      // Through the driver, as slotsAndPrior: every consumption asks it.
      return refunds.collection.findOne<Omit<Consumption, 'slot'>>(key(userId, id), { projection: { _id: 0 } });
    },
    /**
     * What a consumption needs to know, in one query: the consumption already made under this id (any
     * period), and the slots taken in this month's quota and in credits. One read rather than three:
     * FerretDB answers each filter here by scanning the collection, so three filters cost three scans.
     * A snapshot either way (the insert under the unique indexes decides). Through the driver: the filter's
     * values are the strings the schema declares, so mongoose's query casting was CPU only, and CPU per
     * creation bounds the creation rate on two cores (issue 20).
     */
    async slotsAndPrior(
      userId: string,
      id: string,
      quotaPeriod: string,
    ): Promise<{ prior: Pick<Consumption, 'source'> | null; quota: Set<number>; credit: Set<number> }> {
      const docs = await model.collection
        .find<Pick<Consumption, 'consumption_id' | 'source' | 'period' | 'slot'>>(
          {
            user_id: userId,
            $or: [{ consumption_id: id }, { source: 'quota', period: quotaPeriod }, { source: 'credit', period: CREDIT_PERIOD }],
          },
          { projection: { consumption_id: 1, source: 1, period: 1, slot: 1, _id: 0 } },
        )
        .toArray();
      const out = { prior: null as Pick<Consumption, 'source'> | null, quota: new Set<number>(), credit: new Set<number>() };
      for (const d of docs) {
        if (d.consumption_id === id) out.prior = { source: d.source };
        if (d.source === 'quota' && d.period === quotaPeriod) out.quota.add(d.slot);
        if (d.source === 'credit' && d.period === CREDIT_PERIOD) out.credit.add(d.slot);
      }
      return out;
    },
    async count(userId: string, source: Source, period: string): Promise<number> {
      return model.countDocuments({ user_id: userId, source, period });
    },
    /** Takes a slot for the consumption: 'taken' on success, 'slot_taken' or 'id_used' on a unique-index refusal. */
    async take(c: Consumption): Promise<'taken' | 'slot_taken' | 'id_used'> {
      try {
        // Through the driver, the schema's fields named: a mongoose document per consumption was CPU
        // only (every field is given and typed), and CPU per creation bounds the rate on two cores.
        const doc: Record<string, unknown> = {
          user_id: c.user_id,
          consumption_id: c.consumption_id,
          source: c.source,
          period: c.period,
          slot: c.slot,
          created_at: c.created_at,
        };
        await model.collection.insertOne(doc);
        return 'taken';
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return (await model.exists(key(c.user_id, c.consumption_id))) ? 'id_used' : 'slot_taken';
      }
    },
    /** Records the refund (once) and frees the slot; both steps are idempotent, so a retry finishes a half-done refund. */
    async refund(c: Consumption): Promise<boolean> {
      let first = true;
      try {
        await refunds.create({ ...key(c.user_id, c.consumption_id), source: c.source, period: c.period, created_at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        first = false;
      }
      await model.deleteOne(key(c.user_id, c.consumption_id));
      return first;
    },
    /** Frees the slot of an already recorded refund (finishing a refund interrupted after its record). */
    async release(userId: string, id: string): Promise<void> {
      await model.deleteOne(key(userId, id));
    },
  };
}

export type ConsumptionRepository = ReturnType<typeof createConsumptionRepository>;
