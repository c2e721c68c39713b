import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';

/** A user's WebAuthn credential (passkey): its public key and signature counter, named by the user. */
export type PasskeyRecord = {
  _id: string;
  user_id: string;
  name: string;
  /** base64url credential id, as the authenticator reports it. */
  credential_id: string;
  /** COSE public key. */
  public_key: Buffer;
  counter: number;
  transports: string[];
  created_at: Date;
  last_used_at: Date | null;
};

const passkeySchema = new Schema(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    name: { type: String, required: true },
    credential_id: { type: String, required: true },
    public_key: { type: Buffer, required: true },
    counter: { type: Number, required: true },
    transports: { type: [String], default: [] },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
  },
  { collection: 'passkeys', versionKey: false },
);
// A credential belongs to one user (a discoverable sign-in finds the user by it).
passkeySchema.index({ credential_id: 1 }, { unique: true });
passkeySchema.index({ user_id: 1, created_at: 1 });

/** A stored public key as bytes: lean reads give BSON Binary (its bytes in `.buffer`), not a Buffer. */
export function publicKeyBytes(v: unknown): Uint8Array<ArrayBuffer> {
  if (v instanceof Uint8Array) return new Uint8Array(v);
  const inner = (v as { buffer?: unknown } | null)?.buffer;
  if (inner instanceof Uint8Array) return new Uint8Array(inner);
  throw new Error('stored passkey public key is not binary');
}

export function createPasskeyRepository(conn: Connection) {
  const model = conn.model('Passkey', passkeySchema);
  return {
    model,
    async init() {
      await model.init();
    },
    /** Stores a new credential; throws a duplicate-key error when the credential is registered already. */
    async add(p: Omit<PasskeyRecord, '_id' | 'created_at' | 'last_used_at'>, now: Date): Promise<PasskeyRecord> {
      const rec: PasskeyRecord = { ...p, _id: randomUUID(), created_at: now, last_used_at: null };
      await model.create(rec);
      return rec;
    },
    ofUser: (userId: string) => model.find({ user_id: userId }).sort({ created_at: 1 }).lean<PasskeyRecord[]>().exec(),
    countOf: (userId: string) => model.countDocuments({ user_id: userId }).exec(),
    byCredentialId: (credentialId: string) => model.findOne({ credential_id: credentialId }).lean<PasskeyRecord>().exec(),
    /** Removes one of the user's passkeys; the removed record, or null when it is not theirs. */
    async remove(userId: string, id: string): Promise<PasskeyRecord | null> {
      return model.findOneAndDelete({ _id: id, user_id: userId }).lean<PasskeyRecord>().exec();
    },
    /** A new name for one of the user's passkeys; the record as it was before, or null when it is not theirs. */
    async rename(userId: string, id: string, name: string): Promise<PasskeyRecord | null> {
      return model
        .findOneAndUpdate({ _id: id, user_id: userId }, { $set: { name } }, { new: false })
        .lean<PasskeyRecord>()
        .exec();
    },
    /**
     * Records a use with the authenticator's new counter, only if the stored counter is still the one
     * the assertion was checked against (two racing uses of one assertion: one wins). false: lost.
     */
    async use(id: string, expectCounter: number, newCounter: number, now: Date): Promise<boolean> {
      const r = await model.updateOne({ _id: id, counter: expectCounter }, { $set: { counter: newCounter, last_used_at: now } });
      return r.modifiedCount === 1;
    },
  };
}
export type PasskeyRepository = ReturnType<typeof createPasskeyRepository>;
