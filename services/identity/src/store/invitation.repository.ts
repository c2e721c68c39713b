import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';

/** A pending invitation to an organisation; the code is stored only as its SHA-256. */
export type InvitationRecord = {
  _id: string;
  org_id: string;
  email: string;
  role: string;
  code_hash: string;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  /** Set when used or withdrawn: the code is good once. */
  closed_at: Date | null;
};

const invitationSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, required: true },
    code_hash: { type: String, required: true },
    invited_by: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    closed_at: { type: Date, default: null },
    outbox: outboxField,
  },
  { collection: 'invitations', versionKey: false },
);
invitationSchema.index({ code_hash: 1 }, { unique: true });
invitationSchema.index({ org_id: 1, created_at: -1 });
invitationSchema.index(...outboxIndex);

const NO_OUTBOX = { outbox: 0 } as const;

export function createInvitationRepository(conn: Connection) {
  const model = conn.model('Invitation', invitationSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    /**
     * A new invitation with its event. A pending one to the same address in the organisation is
     * withdrawn first: the newest mail is the one that works.
     */
    async create(
      inv: Omit<InvitationRecord, '_id' | 'closed_at' | 'created_at'>,
      now: Date,
      event: OutboxEntry,
    ): Promise<InvitationRecord> {
      await model.updateMany({ org_id: inv.org_id, email: inv.email, closed_at: null }, { $set: { closed_at: now } });
      const rec: InvitationRecord = { ...inv, _id: randomUUID(), created_at: now, closed_at: null };
      try {
        await model.create({ ...rec, outbox: [event] });
      } catch (err) {
        if (isDuplicateKey(err)) throw new Error('invitation code collision');
        throw err;
      }
      return rec;
    },
    /** The organisation's open, unexpired invitations, newest first. */
    pending: (orgId: string, now: Date) =>
      model
        .find({ org_id: orgId, closed_at: null, expires_at: { $gt: now } }, NO_OUTBOX)
        .sort({ created_at: -1 })
        .lean<InvitationRecord[]>()
        .exec(),
    /** Spends an open, unexpired invitation by its code hash (once: concurrent uses get one winner). */
    async take(codeHash: string, now: Date): Promise<InvitationRecord | null> {
      const doc = await model
        .findOneAndUpdate(
          { code_hash: codeHash, closed_at: null, expires_at: { $gt: now } },
          { $set: { closed_at: now } },
          { new: false },
        )
        .lean<InvitationRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, ...inv } = doc;
      return inv;
    },
    /** Reopens an invitation whose acceptance failed after it was taken (e.g. the email got an account meanwhile is not one). */
    async reopen(id: string) {
      await model.updateOne({ _id: id }, { $set: { closed_at: null } });
    },
    /** Withdraws an open invitation of the organisation; false when there is none. */
    async revoke(orgId: string, id: string, now: Date): Promise<boolean> {
      const r = await model.updateOne({ _id: id, org_id: orgId, closed_at: null }, { $set: { closed_at: now } });
      return r.modifiedCount === 1;
    },
  };
}
export type InvitationRepository = ReturnType<typeof createInvitationRepository>;
