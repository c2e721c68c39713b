import { Schema, type Connection } from 'mongoose';

/**
 * Each organisation's branding as `identity.branding.changed` carried it (issue 34 item 4), for the
 * mails to its signers: _id is the organisation's id (the transactions' owner_id). `at` is the
 * event's time: an older or redelivered event changes nothing.
 */
export type AccountBranding = {
  _id: string;
  display_name: string;
  color: string;
  reply_to: string;
  logo_sha256: string;
  at: Date;
};

const schema = new Schema(
  {
    _id: String,
    display_name: { type: String, default: '' },
    color: { type: String, default: '' },
    reply_to: { type: String, default: '' },
    logo_sha256: { type: String, default: '' },
    at: { type: Date, required: true },
  },
  { collection: 'account_branding', versionKey: false },
);

export function createAccountBrandingRepository(conn: Connection) {
  const model = conn.model('AccountBranding', schema);
  return {
    model,
    init: async () => {
      await model.init();
    },
    get: (orgId: string) => model.findOne({ _id: orgId }).lean<AccountBranding>().exec(),
    /** Keeps the branding unless what is stored is newer. */
    async set(b: AccountBranding): Promise<void> {
      const { _id, ...rest } = b;
      const res = await model.updateOne({ _id, at: { $lte: b.at } }, { $set: rest });
      if (res.matchedCount > 0) return;
      try {
        await model.create(b);
      } catch (err) {
        // A stored newer one (the filter missed it on its date): keep it.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
  };
}

export type AccountBrandingRepository = ReturnType<typeof createAccountBrandingRepository>;
