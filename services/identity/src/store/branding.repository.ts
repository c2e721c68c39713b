import { outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import { Schema, type Connection } from 'mongoose';

/** An organisation's branding (issue 34 item 4); _id is the organisation's id (its owner's user id). */
export type BrandingRecord = {
  _id: string;
  display_name: string;
  color: string;
  reply_to: string;
  logo_sha256: string;
  logo_png?: Buffer | null;
  logo_width: number;
  logo_height: number;
  updated_at: Date;
  updated_by: string;
};

const brandingSchema = new Schema(
  {
    _id: String,
    display_name: { type: String, default: '' },
    color: { type: String, default: '' },
    reply_to: { type: String, default: '' },
    logo_sha256: { type: String, default: '' },
    logo_png: { type: Buffer, default: null },
    logo_width: { type: Number, default: 0 },
    logo_height: { type: Number, default: 0 },
    updated_at: { type: Date, required: true },
    updated_by: { type: String, default: '' },
    outbox: outboxField,
  },
  { collection: 'branding', versionKey: false },
);
// The public logo route finds a logo by its hash.
brandingSchema.index({ logo_sha256: 1 });
brandingSchema.index(...outboxIndex);

const NO_LOGO_BYTES = { logo_png: 0, outbox: 0 } as const;

export function createBrandingRepository(conn: Connection) {
  const model = conn.model('Branding', brandingSchema);
  return {
    model,
    init: async () => {
      await model.init();
    },
    /** The branding without the logo's bytes; null when the organisation never set one. */
    get: (orgId: string) => model.findOne({ _id: orgId }, NO_LOGO_BYTES).lean<BrandingRecord>().exec(),
    /** The logo's bytes by its hash (any organisation's: the hash is the address). */
    async logo(sha256: string): Promise<Buffer | null> {
      const doc = await model.findOne({ logo_sha256: sha256 }, { logo_png: 1 }).lean<{ logo_png?: unknown }>();
      const png = doc?.logo_png as { buffer?: Uint8Array } | Buffer | null | undefined;
      if (!png) return null;
      return Buffer.isBuffer(png) ? png : Buffer.from((png as { buffer: Uint8Array }).buffer);
    },
    /** Replaces the branding with its events (the change, its audit entry) in one write. */
    async set(orgId: string, next: Omit<BrandingRecord, '_id'>, outbox: OutboxEntry[]): Promise<void> {
      await model.updateOne({ _id: orgId }, { $set: next, $push: { outbox: { $each: outbox } } }, { upsert: true });
    },
  };
}

export type BrandingRepository = ReturnType<typeof createBrandingRepository>;
