import { Schema, type Connection } from 'mongoose';

export type Credential = {
  email: string;
  credential_id: string;
  public_key: Buffer;
  counter: number;
  transports: string[];
};

const credentialSchema = new Schema(
  {
    email: { type: String, required: true },
    credential_id: { type: String, required: true },
    public_key: { type: Buffer, required: true },
    counter: { type: Number, required: true },
    transports: { type: [String], default: [] },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
  },
  { versionKey: false },
);
// A credential id is registered once; the signer's credentials are looked up by email.
credentialSchema.index({ credential_id: 1 }, { unique: true });
credentialSchema.index({ email: 1 });

/** Signers' WebAuthn credentials, by signer email (a signer keeps them across transactions). */
export function createCredentialRepository(conn: Connection) {
  const credentials = conn.model('WebauthnCredential', credentialSchema, 'webauthn_credentials');
  return {
    model: credentials,
    async init() {
      await credentials.createIndexes();
    },
    async credentialsOf(email: string): Promise<Credential[]> {
      const docs = (await credentials.find({ email: email.toLowerCase() }).lean()) as unknown as Credential[];
      // lean() returns BSON Binary for buffers.
      return docs.map((c) => {
        const pk = c.public_key as unknown as Buffer | { buffer: Uint8Array };
        return { ...c, public_key: Buffer.isBuffer(pk) ? pk : Buffer.from(pk.buffer) };
      });
    },
    /** Throws a duplicate-key error when the credential id is registered already. */
    async addCredential(c: Credential) {
      await credentials.create({ ...c, email: c.email.toLowerCase(), created_at: new Date() });
    },
    /** Moves the signature counter on, only from the value read (a replayed or cloned assertion loses). */
    async useCredential(credentialId: string, oldCounter: number, newCounter: number): Promise<boolean> {
      const r = await credentials.updateOne(
        { credential_id: credentialId, counter: oldCounter },
        { $set: { counter: newCounter, last_used_at: new Date() } },
      );
      return r.modifiedCount === 1;
    },
  };
}
export type CredentialRepository = ReturnType<typeof createCredentialRepository>;
