import { randomBytes } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import type { TemplateRecord } from '../domain/template.js';

const schema = new Schema(
  {
    _id: String,
    owner_id: { type: String, required: true },
    test: { type: Boolean, default: false },
    name: String,
    roles: [{ _id: false, name: String, order: Number, verification: String, webauthn: Boolean, required_assurance: String }],
    fields: [Schema.Types.Mixed],
    document_key: String,
    document_sha256: String,
    document_size: Number,
    document_name: String,
    pages: [{ _id: false, width: Number, height: Number }],
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, collection: 'templates', minimize: false },
);
schema.index({ owner_id: 1, test: 1, _id: -1 });
schema.index({ document_key: 1 });

/** A new template id: `tpl_` then the time (base 36, so ids sort by creation) and 10 random characters. */
export function newTemplateId(now: Date): string {
  const rand = [...randomBytes(10)].map((b) => (b % 36).toString(36)).join('');
  return `tpl_${now.getTime().toString(36).padStart(9, '0')}${rand}`;
}

/** The templates collection: one document per template, its document in the documents bucket. */
export function createTemplateRepository(conn: Connection) {
  const model = conn.model<TemplateRecord>('Template', schema);
  const own = (ownerId: string, test: boolean) => ({ owner_id: ownerId, test: test ? true : { $ne: true } });
  return {
    model,
    async init() {
      await model.createIndexes();
    },
    async insert(rec: TemplateRecord): Promise<void> {
      await model.create(rec);
    },
    /** The owner's template of that mode, or null (another owner's, or the other mode's, is null too). */
    async find(ownerId: string, test: boolean, id: string): Promise<TemplateRecord | null> {
      return model.findOne({ _id: id, ...own(ownerId, test) }).lean<TemplateRecord>();
    },
    /** Newest first, `limit` of them, after the cursor (an id) when given. */
    async list(ownerId: string, test: boolean, limit: number, before?: string): Promise<TemplateRecord[]> {
      return model
        .find({ ...own(ownerId, test), ...(before ? { _id: { $lt: before } } : {}) })
        .sort({ _id: -1 })
        .limit(limit)
        .lean<TemplateRecord[]>();
    },
    /** Replaces what changed; null when the template is gone (or not the owner's). */
    async update(
      ownerId: string,
      test: boolean,
      id: string,
      set: Partial<Pick<TemplateRecord, 'name' | 'roles' | 'fields' | 'updated_at'>>,
    ): Promise<TemplateRecord | null> {
      await model.updateOne({ _id: id, ...own(ownerId, test) }, { $set: set });
      return model.findOne({ _id: id, ...own(ownerId, test) }).lean<TemplateRecord>();
    },
    /** Removes it; the removed record (for its document), or null when there was none. */
    async remove(ownerId: string, test: boolean, id: string): Promise<TemplateRecord | null> {
      const rec = await model.findOne({ _id: id, ...own(ownerId, test) }).lean<TemplateRecord>();
      if (!rec) return null;
      const r = await model.deleteOne({ _id: id, ...own(ownerId, test) });
      return r.deletedCount === 1 ? rec : null;
    },
    /** Which of these documents-bucket keys a template keeps (so the orphan sweep leaves them). */
    async ownedKeys(keys: string[]): Promise<Set<string>> {
      const docs = await model.find({ document_key: { $in: keys } }, { document_key: 1 }).lean<{ document_key: string }[]>();
      return new Set(docs.map((d) => d.document_key));
    },
  };
}
export type TemplateRepository = ReturnType<typeof createTemplateRepository>;
