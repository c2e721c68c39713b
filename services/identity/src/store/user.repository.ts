import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';

export type UserRecord = {
  _id: string;
  email: string;
  name: string;
  org_name: string;
  password_hash: string;
  /** Bumped by every password change; sessions carry the version they were made under. */
  password_version: number;
  session_ttl_hours: number;
  /** Biometric retention of the account's new transactions, in days; null: the operator's default. */
  biometric_retention_days?: number | null;
  /** The account's transaction lifecycle defaults (domain/lifecycle-settings.ts); null: the operator's. */
  expiry_days?: number | null;
  reminder_first_after_hours?: number | null;
  reminder_every_hours?: number | null;
  reminder_max?: number | null;
  /** Origins that may frame the account's signing pages (embedded signing); absent: none. */
  embed_origins?: string[];
  totp_enabled: boolean;
  /** AES-256-GCM sealed base32 secrets (see domain/secrets.ts). */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  /** The last TOTP time step accepted: a code is good once. */
  totp_last_step: number;
  reset_code_hash: string | null;
  reset_code_expires_at: Date | null;
  reset_code_attempts: number;
  created_at: Date;
  /** The organisation (its owner's user id); absent: the user's own (domain/roles.ts orgOf). */
  org_id?: string | null;
  /** owner, admin, sender or viewer; absent: owner of their own organisation (domain/roles.ts roleOf). */
  role?: string | null;
};

const userSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    name: { type: String, required: true },
    org_name: { type: String, required: true },
    password_hash: { type: String, required: true },
    password_version: { type: Number, default: 0 },
    session_ttl_hours: { type: Number, required: true },
    biometric_retention_days: { type: Number, default: null },
    expiry_days: { type: Number, default: null },
    reminder_first_after_hours: { type: Number, default: null },
    reminder_every_hours: { type: Number, default: null },
    reminder_max: { type: Number, default: null },
    embed_origins: { type: [String], default: undefined },
    totp_enabled: { type: Boolean, default: false },
    totp_secret: { type: String, default: null },
    totp_pending_secret: { type: String, default: null },
    totp_last_step: { type: Number, default: 0 },
    reset_code_hash: { type: String, default: null },
    reset_code_expires_at: { type: Date, default: null },
    reset_code_attempts: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    org_id: { type: String, default: null },
    role: { type: String, default: null },
    outbox: outboxField,
  },
  { collection: 'users', versionKey: false },
);
// The members of an organisation.
userSchema.index({ org_id: 1 });
// One account per email (login, check-email, reset); also makes concurrent onboardings of one intent create one user.
userSchema.index({ email: 1 }, { unique: true });
userSchema.index(...outboxIndex);

const NO_OUTBOX = { outbox: 0 } as const;

/** The settings of the account that the transaction service applies (identity.settings.changed). */
export type AccountSetting =
  'biometric_retention_days' | 'expiry_days' | 'reminder_first_after_hours' | 'reminder_every_hours' | 'reminder_max';

const userModel = (conn: Connection) => conn.model('User', userSchema);
type UserModel = ReturnType<typeof userModel>;

/** The accounts: who they are, their organisation, their password, settings and second factor. */
export function createUserRepository(conn: Connection) {
  const model = userModel(conn);
  return {
    model,
    async init() {
      await model.init();
    },
    ...userReads(model),
    ...userMembership(model),
    ...userPassword(model),
    ...userSettings(model),
    ...userTotp(model),
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;

/** Finding users: by email, by id, the organisation's members. */
function userReads(model: UserModel) {
  return {
    byEmail: (email: string) => model.findOne({ email }, NO_OUTBOX).lean<UserRecord>().exec(),
    byId: (id: string) => model.findOne({ _id: id }, NO_OUTBOX).lean<UserRecord>().exec(),
    exists: async (email: string) => (await model.exists({ email })) !== null,
    /** The organisation's users: its owner (whose id is the organisation's) and every member. */
    members: (orgId: string) =>
      model
        .find({ $or: [{ _id: orgId }, { org_id: orgId }] }, NO_OUTBOX)
        .sort({ created_at: 1 })
        .lean<UserRecord[]>()
        .exec(),
  };
}

/** Joining and leaving: a new account, a member's role and removal, events about a member gone. */
function userMembership(model: UserModel) {
  return {
    /** Inserts a new user with its creation event; null when the email already has an account. */
    async create(
      u: Omit<
        UserRecord,
        | '_id'
        | 'password_version'
        | 'totp_enabled'
        | 'totp_secret'
        | 'totp_pending_secret'
        | 'totp_last_step'
        | 'reset_code_hash'
        | 'reset_code_expires_at'
        | 'reset_code_attempts'
      >,
      outbox: (id: string) => OutboxEntry[],
    ): Promise<UserRecord | null> {
      const id = randomUUID();
      try {
        await model.create({ ...u, _id: id, outbox: outbox(id) });
      } catch (err) {
        if (isDuplicateKey(err)) return null;
        throw err;
      }
      return model.findOne({ _id: id }, NO_OUTBOX).lean<UserRecord>();
    },
    /** Sets a member's role with the event that records it; the previous record, or null when not in the organisation. */
    async setRole(orgId: string, userId: string, role: string, outbox: OutboxEntry[]): Promise<UserRecord | null> {
      const doc = await model
        .findOneAndUpdate(
          { _id: userId, org_id: orgId },
          { $set: { role }, $push: { outbox: { $each: outbox } } },
          { new: false },
        )
        .lean<UserRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, ...user } = doc;
      return user;
    },
    /** Deletes a member (never the organisation's founding owner): their sessions and keys stop resolving. */
    async removeMember(orgId: string, userId: string): Promise<boolean> {
      const r = await model.deleteOne({ _id: userId, org_id: orgId });
      return r.deletedCount === 1;
    },
    /** Queues an event on the organisation's own document (events about a user that no longer exists). */
    async pushEvent(orgId: string, outbox: OutboxEntry[]) {
      await model.updateOne({ _id: orgId }, { $push: { outbox: { $each: outbox } } });
    },
  };
}

/** The password and its reset code. */
function userPassword(model: UserModel) {
  return {
    /** Sets a new password hash and bumps the version (invalidating older sessions); clears any reset code. */
    async setPassword(id: string, hash: string, expectVersion: number): Promise<UserRecord | null> {
      // FerretDB 1.x has no projection on findAndModify: the outbox is dropped here instead.
      const doc = await model
        .findOneAndUpdate(
          { _id: id, password_version: expectVersion },
          {
            $set: { password_hash: hash, reset_code_hash: null, reset_code_expires_at: null, reset_code_attempts: 0 },
            $inc: { password_version: 1 },
          },
          { new: true },
        )
        .lean<UserRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, ...user } = doc;
      return user;
    },
    async setResetCode(id: string, hash: string, expiresAt: Date) {
      await model.updateOne(
        { _id: id },
        { $set: { reset_code_hash: hash, reset_code_expires_at: expiresAt, reset_code_attempts: 0 } },
      );
    },
    /** Counts a wrong try of this reset code: the tries so far, or null when the user no longer has it. */
    async countWrongResetCode(id: string, hash: string): Promise<number | null> {
      const doc = await model
        .findOneAndUpdate({ _id: id, reset_code_hash: hash }, { $inc: { reset_code_attempts: 1 } }, { new: true })
        .lean<{ reset_code_attempts: number }>();
      return doc ? doc.reset_code_attempts : null;
    },
    /** Spends this reset code (if the user still has it): a new one must be sent. */
    async burnResetCode(id: string, hash: string) {
      await model.updateOne({ _id: id, reset_code_hash: hash }, { $set: { reset_code_hash: null, reset_code_expires_at: null } });
    },
  };
}

/** The account's settings: session length, what the transaction service applies, embedding origins. */
function userSettings(model: UserModel) {
  return {
    /**
     * Sets the session length of the account; the previous value for the audit log, or null when
     * there is no such user. One conditional update: concurrent changes each see what they replaced.
     */
    async setSessionTtl(id: string, hours: number, outbox: OutboxEntry[] = []): Promise<{ previous: number } | null> {
      // FerretDB 1.x has no projection on findAndModify: the whole document comes back; only the old value is used.
      const doc = await model
        .findOneAndUpdate(
          { _id: id },
          { $set: { session_ttl_hours: hours }, ...(outbox.length ? { $push: { outbox: { $each: outbox } } } : {}) },
          { new: false },
        )
        .lean<{ session_ttl_hours: number }>();
      return doc ? { previous: doc.session_ttl_hours } : null;
    },
    /**
     * Sets account settings the transaction service applies (biometric retention, lifecycle defaults)
     * with the event that carries them there, in one update; each one's previous value (null: the
     * default), or undefined when there is no such user.
     */
    async setAccountSettings(
      id: string,
      set: Partial<Record<AccountSetting, number>>,
      outbox: OutboxEntry[],
    ): Promise<{ previous: Partial<Record<AccountSetting, number | null>> } | undefined> {
      const doc = await model
        .findOneAndUpdate({ _id: id }, { $set: set, $push: { outbox: { $each: outbox } } }, { new: false })
        .lean<Partial<Record<AccountSetting, number | null>>>();
      if (!doc) return undefined;
      const previous = Object.fromEntries(Object.keys(set).map((k) => [k, doc[k as AccountSetting] ?? null]));
      return { previous };
    },
    /** Replaces the embedding origins; the previous list, or undefined when there is no such user. */
    async setEmbedOrigins(
      id: string,
      origins: string[],
      outbox: OutboxEntry[] = [],
    ): Promise<{ previous: string[] } | undefined> {
      const doc = await model
        .findOneAndUpdate(
          { _id: id },
          { $set: { embed_origins: origins }, ...(outbox.length ? { $push: { outbox: { $each: outbox } } } : {}) },
          { new: false },
        )
        .lean<{ embed_origins?: string[] }>();
      return doc ? { previous: doc.embed_origins ?? [] } : undefined;
    },
  };
}

/** The second factor (TOTP): its pending and enabled secret, and the steps used. */
function userTotp(model: UserModel) {
  return {
    async setPendingTotp(id: string, sealed: string) {
      await model.updateOne({ _id: id }, { $set: { totp_pending_secret: sealed } });
    },
    /** Turns TOTP on with the pending secret the code matched, recording the step; false if something moved. */
    async enableTotp(id: string, sealed: string, step: number): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, totp_enabled: false, totp_pending_secret: sealed },
        { $set: { totp_enabled: true, totp_secret: sealed, totp_pending_secret: null, totp_last_step: step } },
      );
      return r.modifiedCount === 1;
    },
    async disableTotp(id: string): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, totp_enabled: true },
        { $set: { totp_enabled: false, totp_secret: null, totp_pending_secret: null } },
      );
      return r.modifiedCount === 1;
    },
    /** Records a used TOTP step if it is later than the last one: true means the code may be accepted. */
    async useTotpStep(id: string, step: number): Promise<boolean> {
      const r = await model.updateOne({ _id: id, totp_last_step: { $lt: step } }, { $set: { totp_last_step: step } });
      return r.modifiedCount === 1;
    },
  };
}
