import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';

/** One entry of an account's audit log. Append-only: this repository has no update path. */
export type AuditRecord = {
  _id: string;
  /** The organisation (account) whose log it is. */
  account_id: string;
  at: Date;
  action: string;
  actor_id: string;
  actor_email: string;
  target: string;
  ip: string;
  user_agent: string;
  details: Record<string, string>;
};

const auditSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    at: { type: Date, required: true },
    action: { type: String, required: true },
    actor_id: { type: String, default: '' },
    actor_email: { type: String, default: '' },
    target: { type: String, default: '' },
    ip: { type: String, default: '' },
    user_agent: { type: String, default: '' },
    details: { type: Object, default: {} },
  },
  { collection: 'audit_log', versionKey: false, minimize: false },
);
// Newest first per account; the id breaks ties of one millisecond (the cursor is at + id).
auditSchema.index({ account_id: 1, at: -1, _id: -1 });
auditSchema.index({ at: 1 });

export type AuditFilter = {
  accountId: string;
  actorId?: string;
  /** Exact, or a prefix when it ends in '.'. */
  action?: string;
  from?: Date;
  to?: Date;
  /** Entries strictly older than this (at, id). */
  before?: { at: Date; id: string };
};

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function query(f: AuditFilter): Record<string, unknown> {
  const q: Record<string, unknown> = { account_id: f.accountId };
  if (f.actorId) q.actor_id = f.actorId;
  if (f.action) q.action = f.action.endsWith('.') ? { $regex: `^${escapeRegex(f.action)}` } : f.action;
  const at: Record<string, Date> = {};
  if (f.from) at.$gte = f.from;
  if (f.to) at.$lt = f.to;
  if (Object.keys(at).length) q.at = at;
  if (f.before) {
    const b = f.before;
    return { $and: [q, { $or: [{ at: { $lt: b.at } }, { at: b.at, _id: { $lt: b.id } }] }] };
  }
  return q;
}

export function createAuditRepository(conn: Connection) {
  const model = conn.model('AuditEntry', auditSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    /** Appends an entry; the id defaults to a new one (an event's id makes a consumer's write idempotent). */
    async append(e: Omit<AuditRecord, '_id'> & { _id?: string }): Promise<void> {
      await model.create({ ...e, _id: e._id ?? randomUUID() });
    },
    /** Appends an entry under its given id (an event's): false when it is there already (a redelivery). */
    async appendOnce(e: AuditRecord): Promise<boolean> {
      try {
        await model.create(e);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    /** A page of the account's entries, newest first. */
    page: (f: AuditFilter, limit: number) =>
      model.find(query(f)).sort({ at: -1, _id: -1 }).limit(limit).lean<AuditRecord[]>().exec(),
    /** Retention: deletes every entry older than the cutoff; how many. */
    async deleteOlderThan(cutoff: Date): Promise<number> {
      const r = await model.deleteMany({ at: { $lt: cutoff } });
      return r.deletedCount;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
