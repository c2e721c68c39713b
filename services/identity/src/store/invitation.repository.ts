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
  /** The page the mail's link opens (the code is appended); absent on invitations mailed before the outbox. */
  accept_url?: string;
  /**
   * The code, sealed (AES-GCM, the TOTP key's box), only until identity-invitation-mail has sent the
   * mail: then, or when the invitation closes, it is cleared and only the hash remains.
   */
  mail_sealed?: string | null;
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
    accept_url: { type: String, default: '' },
    mail_sealed: { type: String, default: null },
    outbox: outboxField,
  },
  { collection: 'invitations', versionKey: false },
);
invitationSchema.index({ code_hash: 1 }, { unique: true });
invitationSchema.index({ org_id: 1, created_at: -1 });
invitationSchema.index(...outboxIndex);

const NO_OUTBOX = { outbox: 0, mail_sealed: 0 } as const;

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
      inv: Omit<InvitationRecord, '_id' | 'closed_at' | 'created_at' | 'mail_sealed'>,
      now: Date,
      outbox: (id: string) => OutboxEntry[],
      /** The code sealed for the invitation's id, kept until its mail is sent (none: no mail from the outbox). */
      seal: (id: string) => string | null = () => null,
    ): Promise<InvitationRecord> {
      await model.updateMany(
        { org_id: inv.org_id, email: inv.email, closed_at: null },
        { $set: { closed_at: now, mail_sealed: null } },
      );
      const rec: InvitationRecord = { ...inv, _id: randomUUID(), created_at: now, closed_at: null };
      try {
        await model.create({ ...rec, mail_sealed: seal(rec._id), outbox: outbox(rec._id) });
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
          { $set: { closed_at: now, mail_sealed: null } },
          { new: false },
        )
        .lean<InvitationRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, mail_sealed: _sealed, ...inv } = doc;
      return inv;
    },
    /** Reopens an invitation whose acceptance failed after it was taken (e.g. the email got an account meanwhile is not one). */
    async reopen(id: string) {
      await model.updateOne({ _id: id }, { $set: { closed_at: null } });
    },
    /** An open invitation of the organisation (without its outbox or sealed code); null when there is none. */
    openInOrg: (orgId: string, id: string) =>
      model.findOne({ _id: id, org_id: orgId, closed_at: null }, NO_OUTBOX).lean<InvitationRecord>().exec(),
    /** Withdraws an open invitation of the organisation with its events (and an unsent mail); false when there is none. */
    async revoke(orgId: string, id: string, now: Date, outbox: OutboxEntry[] = []): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, org_id: orgId, closed_at: null },
        { $set: { closed_at: now, mail_sealed: null }, ...(outbox.length ? { $push: { outbox: { $each: outbox } } } : {}) },
      );
      return r.modifiedCount === 1;
    },
    /** The invitation with its sealed code while its mail is unsent; null otherwise. */
    async forMail(id: string): Promise<(InvitationRecord & { mail_sealed: string }) | null> {
      const doc = await model.findOne({ _id: id }, { outbox: 0 }).lean<InvitationRecord>();
      return doc && typeof doc.mail_sealed === 'string' && doc.mail_sealed ? { ...doc, mail_sealed: doc.mail_sealed } : null;
    },
    /** The mail went out (or cannot any more): only the code's hash remains. */
    async mailDone(id: string) {
      await model.updateOne({ _id: id }, { $set: { mail_sealed: null } });
    },
  };
}
export type InvitationRepository = ReturnType<typeof createInvitationRepository>;
