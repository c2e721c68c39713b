import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import type { AccountState } from '../domain/account.js';

/**
 * Account state as an append-only chain of versions per user. A change is the insert of version
 * n+1; the unique (user_id, version) index lets exactly one of two concurrent writers win, and the
 * loser reads again and recomputes. This is the compare-and-set FerretDB 1.x can give: its
 * findOneAndUpdate/updateOne are not atomic under concurrency (see docs/decisions.md, Billing), but a
 * unique index is enforced by the storage engine. The outbox entry rides on the inserted version.
 */
const stateSchema = new Schema(
  {
    user_id: { type: String, required: true },
    version: { type: Number, required: true },
    plan: { type: String, required: true },
    credits_granted: { type: Number, required: true },
    past_due: { type: Boolean, required: true },
    past_due_since: { type: Date, default: null },
    downgrade_at: { type: Date, default: null },
    downgrade_reason: { type: String, default: null },
    subscription: { type: Object, default: null },
    payments_applied: { type: [String], default: [] },
    periods_applied: { type: [String], default: [] },
    /** Set once a newer version exists, so the sweep looks at current versions only. */
    superseded: { type: Boolean, default: false },
    cause: { type: String, default: null },
    created_at: { type: Date, required: true },
    outbox: outboxField,
  },
  { collection: 'account_states', versionKey: false, minimize: false },
);
// The compare-and-set: one version n+1 per user, whoever inserts it first.
stateSchema.index({ user_id: 1, version: 1 }, { unique: true });
stateSchema.index(...outboxIndex);
// The downgrade sweep: current versions whose scheduled downgrade has come.
stateSchema.index({ superseded: 1, downgrade_at: 1 });

const PROJECTION = { outbox: 0, _id: 0, superseded: 0, cause: 0, created_at: 0 } as const;

export function createAccountRepository(conn: Connection) {
  const model = conn.model('AccountState', stateSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    /**
     * The current state, or null for a user billing has not changed yet (a Free account). Through the
     * driver: every consumption reads it, and mongoose's query machinery was CPU only (issue 20).
     */
    async latest(userId: string): Promise<AccountState | null> {
      return model.collection.findOne<AccountState>({ user_id: userId }, { projection: PROJECTION, sort: { version: -1 } });
    },
    /** Appends `next` as the version after `from`; false when another writer got there first. */
    async append(from: AccountState, next: AccountState, outbox: OutboxEntry[], cause: string): Promise<boolean> {
      try {
        await model.create({ ...next, version: from.version + 1, cause, created_at: new Date(), outbox });
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      if (from.version > 0)
        await model.updateOne({ user_id: from.user_id, version: from.version }, { $set: { superseded: true } });
      return true;
    },
    /** Users whose current version has a downgrade due. */
    async dueForDowngrade(now: Date, limit = 100): Promise<string[]> {
      const docs = await model
        .find({ superseded: false, downgrade_at: { $ne: null, $lte: now } }, { user_id: 1 })
        .limit(limit)
        .lean<{ user_id: string }[]>();
      return [...new Set(docs.map((d) => d.user_id))];
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
