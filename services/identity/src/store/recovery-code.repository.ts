import { Schema, type Connection } from 'mongoose';

/**
 * One-time recovery codes: one document per code, keyed by the user and the code's visible id, with
 * the argon2id hash of its secret part. A generation replaces every earlier code of the user.
 */
export type RecoveryCodeRecord = {
  /** `<user id>:<code id>` */
  _id: string;
  user_id: string;
  generation: string;
  hash: string;
  created_at: Date;
  used_at: Date | null;
};

const recoveryCodeSchema = new Schema(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    generation: { type: String, required: true },
    hash: { type: String, required: true },
    created_at: { type: Date, required: true },
    used_at: { type: Date, default: null },
  },
  { collection: 'recovery_codes', versionKey: false },
);
recoveryCodeSchema.index({ user_id: 1, generation: 1 });

const key = (userId: string, codeId: string) => `${userId}:${codeId}`;

export function createRecoveryCodeRepository(conn: Connection) {
  const model = conn.model('RecoveryCode', recoveryCodeSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    /**
     * Stores a new generation, then drops every other one: the user is never left without codes
     * between the two steps (for a moment the old ones still work too).
     */
    async replace(userId: string, generation: string, codes: { id: string; hash: string }[], now: Date) {
      await model.insertMany(
        codes.map((c) => ({ _id: key(userId, c.id), user_id: userId, generation, hash: c.hash, created_at: now, used_at: null })),
      );
      await model.deleteMany({ user_id: userId, generation: { $ne: generation } });
    },
    /** The unused code with this id, or null. */
    unused: (userId: string, codeId: string) =>
      model
        .findOne({ _id: key(userId, codeId), used_at: null })
        .lean<RecoveryCodeRecord>()
        .exec(),
    /** Spends the code: true only for the one caller that spent it. */
    async spend(userId: string, codeId: string, hash: string, now: Date): Promise<boolean> {
      const r = await model.updateOne({ _id: key(userId, codeId), hash, used_at: null }, { $set: { used_at: now } });
      return r.modifiedCount === 1;
    },
    countUnused: (userId: string) => model.countDocuments({ user_id: userId, used_at: null }).exec(),
  };
}
export type RecoveryCodeRepository = ReturnType<typeof createRecoveryCodeRepository>;
