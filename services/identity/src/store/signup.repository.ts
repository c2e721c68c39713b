import { Schema, type Connection } from 'mongoose';

/** A signup intent: the account-to-be, waiting for its email to be verified and onboarding to finish. */
export type SignupRecord = {
  _id: string; // the normalised email
  name: string;
  password_hash: string;
  code_hash: string | null;
  code_expires_at: Date | null;
  code_attempts: number;
  verified_at: Date | null;
  onboarding_token_hash: string | null;
  onboarding_expires_at: Date | null;
  created_at: Date;
};

const signupSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    password_hash: { type: String, required: true },
    code_hash: { type: String, default: null },
    code_expires_at: { type: Date, default: null },
    code_attempts: { type: Number, default: 0 },
    verified_at: { type: Date, default: null },
    onboarding_token_hash: { type: String, default: null },
    onboarding_expires_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: 'signups', versionKey: false },
);
// Onboarding looks an intent up by the hash of its one-time token.
signupSchema.index({ onboarding_token_hash: 1 }, { sparse: true });

export function createSignupRepository(conn: Connection) {
  const model = conn.model('Signup', signupSchema);
  return {
    model,
    async init() {
      await model.init();
    },
    byEmail: (email: string) => model.findOne({ _id: email }).lean<SignupRecord>().exec(),
    byOnboardingToken: (hash: string) => model.findOne({ onboarding_token_hash: hash }).lean<SignupRecord>().exec(),
    /** Starts (or restarts) the intent for an email with a fresh code: one document per email. */
    async upsert(rec: SignupRecord) {
      const { _id, ...rest } = rec;
      await model.replaceOne({ _id }, rest, { upsert: true });
    },
    async setCode(email: string, hash: string, expiresAt: Date): Promise<boolean> {
      const r = await model.updateOne(
        { _id: email },
        { $set: { code_hash: hash, code_expires_at: expiresAt, code_attempts: 0 } },
      );
      return r.matchedCount === 1;
    },
    /** Removes the intent only if it still carries this code (undoes a register whose mail failed). */
    async removeIfCode(email: string, hash: string) {
      await model.deleteOne({ _id: email, code_hash: hash, verified_at: null });
    },
    /** Counts a wrong try of this code: the tries so far, or null when the intent no longer carries it. */
    async countWrongCode(email: string, hash: string): Promise<number | null> {
      const doc = await model
        .findOneAndUpdate({ _id: email, code_hash: hash }, { $inc: { code_attempts: 1 } }, { new: true })
        .lean<{ code_attempts: number }>();
      return doc ? doc.code_attempts : null;
    },
    /** Spends this code (if the intent still carries it): a new one must be sent. */
    async burnCode(email: string, hash: string) {
      await model.updateOne({ _id: email, code_hash: hash }, { $set: { code_hash: null, code_expires_at: null } });
    },
    /** Marks the email verified with the code it was sent; the code is spent. False if the code moved meanwhile. */
    async markVerified(email: string, codeHash: string, tokenHash: string, tokenExpiresAt: Date): Promise<boolean> {
      const r = await model.updateOne(
        { _id: email, code_hash: codeHash },
        {
          $set: {
            code_hash: null,
            code_expires_at: null,
            verified_at: new Date(),
            onboarding_token_hash: tokenHash,
            onboarding_expires_at: tokenExpiresAt,
          },
        },
      );
      return r.modifiedCount === 1;
    },
    async remove(email: string) {
      await model.deleteOne({ _id: email });
    },
  };
}
export type SignupRepository = ReturnType<typeof createSignupRepository>;
