import { Schema, type Connection } from 'mongoose';

/**
 * Billing's copy of user id ↔ email, learned from `signet.identity.user.created`. Webhooks name the
 * customer by email; billing reads only its own database (DESIGN: a service owns its data), so it
 * keeps this small directory instead of querying identity's.
 */
const userSchema = new Schema(
  {
    user_id: { type: String, required: true },
    email: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'users', versionKey: false },
);
// One entry per user: a redelivered user.created event upserts the same document.
userSchema.index({ user_id: 1 }, { unique: true });
// Webhook lookup by the customer's email (lower-cased).
userSchema.index({ email: 1 });

export function createUserDirectory(conn: Connection) {
  const model = conn.model('User', userSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    async remember(userId: string, email: string, at: Date): Promise<void> {
      await model.updateOne(
        { user_id: userId },
        { $set: { email: email.trim().toLowerCase() }, $setOnInsert: { created_at: at } },
        { upsert: true },
      );
    },
    async exists(userId: string): Promise<boolean> {
      return (await model.countDocuments({ user_id: userId })) > 0;
    },
    /** The user with this email; when several (an address reused), the one created last. */
    async findByEmail(email: string): Promise<string | null> {
      const doc = await model
        .findOne({ email: email.trim().toLowerCase() }, { user_id: 1 })
        .sort({ created_at: -1 })
        .lean<{ user_id: string }>();
      return doc?.user_id ?? null;
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
