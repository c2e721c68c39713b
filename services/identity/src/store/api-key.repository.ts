import { randomUUID } from 'node:crypto';
import { Schema, type Connection } from 'mongoose';
import { outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import type { ApiKeyMode } from '../domain/secrets.js';

export type ApiKeyRecord = {
  _id: string;
  user_id: string;
  name: string;
  prefix: string;
  /** SHA-256 of the full key; the plaintext is never stored. */
  hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** Absent on keys made before test mode: those are live. */
  mode?: ApiKeyMode;
  /** The member's organisation; absent on keys made before members: the maker's own. */
  org_id?: string | null;
  /** Absent on keys made before scopes: bounded by the member's role alone. */
  scopes?: string[];
  /** Absent or null: the key does not expire. */
  expires_at?: Date | null;
};

const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    name: { type: String, required: true },
    prefix: { type: String, required: true },
    hash: { type: String, required: true },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
    mode: { type: String, enum: ['live', 'test'], default: 'live' },
    org_id: { type: String, default: null },
    scopes: { type: [String], default: undefined },
    expires_at: { type: Date, default: null },
    // The audit entry of the key's creation or revocation, written with it (identity.audit.recorded).
    outbox: outboxField,
  },
  { collection: 'api_keys', versionKey: false },
);
apiKeySchema.index(...outboxIndex);
// Authentication finds a key by its visible prefix (and prefixes must not collide).
apiKeySchema.index({ prefix: 1 }, { unique: true });
// The dashboard lists a user's keys, newest first.
apiKeySchema.index({ user_id: 1, created_at: -1 });
// An organisation's keys (its admins list and revoke them).
apiKeySchema.index({ org_id: 1, created_at: -1 });

/** An organisation's keys: those made by members, and those its owner made before members existed. */
const ofOrg = (orgId: string) => ({ $or: [{ org_id: orgId }, { user_id: orgId, org_id: null }] });

/** last_used_at is written at most this often per key, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function createApiKeyRepository(conn: Connection) {
  const model = conn.model('ApiKey', apiKeySchema);
  return {
    model,
    async init() {
      await model.init();
    },
    async create(
      userId: string,
      name: string,
      prefix: string,
      hash: string,
      mode: ApiKeyMode = 'live',
      org: { orgId?: string; scopes?: string[]; expiresAt?: Date | null } = {},
      outbox: (rec: ApiKeyRecord) => OutboxEntry[] = () => [],
    ): Promise<ApiKeyRecord> {
      const rec: ApiKeyRecord = {
        org_id: org.orgId ?? userId,
        ...(org.scopes ? { scopes: org.scopes } : {}),
        expires_at: org.expiresAt ?? null,
        _id: randomUUID(),
        user_id: userId,
        name,
        prefix,
        hash,
        created_at: new Date(),
        last_used_at: null,
        revoked_at: null,
        mode,
      };
      await model.create({ ...rec, outbox: outbox(rec) });
      return rec;
    },
    listActive: (userId: string) =>
      model.find({ user_id: userId, revoked_at: null }, { outbox: 0 }).sort({ created_at: -1 }).lean<ApiKeyRecord[]>().exec(),
    /** The organisation's active keys, newest first. */
    listOfOrg: (orgId: string) =>
      model
        .find({ ...ofOrg(orgId), revoked_at: null }, { outbox: 0 })
        .sort({ created_at: -1 })
        .lean<ApiKeyRecord[]>()
        .exec(),
    /** Revokes a key of the organisation; false for an unknown, foreign or already revoked key. */
    async revokeInOrg(orgId: string, id: string, outbox: OutboxEntry[] = []): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, ...ofOrg(orgId), revoked_at: null },
        { $set: { revoked_at: new Date() }, ...(outbox.length ? { $push: { outbox: { $each: outbox } } } : {}) },
      );
      return r.modifiedCount === 1;
    },
    /** A key of the organisation, active or not (without its outbox); null when unknown or foreign. */
    inOrg: (orgId: string, id: string) =>
      model
        .findOne({ _id: id, ...ofOrg(orgId) }, { outbox: 0 })
        .lean<ApiKeyRecord>()
        .exec(),
    /** Revokes every key a member made (they were removed). */
    async revokeAllOf(userId: string): Promise<number> {
      const r = await model.updateMany({ user_id: userId, revoked_at: null }, { $set: { revoked_at: new Date() } });
      return r.modifiedCount;
    },
    activeByPrefix: (prefix: string) => model.findOne({ prefix, revoked_at: null }, { outbox: 0 }).lean<ApiKeyRecord>().exec(),
    /** Revokes the caller's own key; false for an unknown, foreign or already revoked key. */
    async revoke(userId: string, id: string): Promise<boolean> {
      const r = await model.updateOne({ _id: id, user_id: userId, revoked_at: null }, { $set: { revoked_at: new Date() } });
      return r.modifiedCount === 1;
    },
    async touch(id: string, now = new Date()) {
      await model.updateOne(
        { _id: id, $or: [{ last_used_at: null }, { last_used_at: { $lt: new Date(now.getTime() - LAST_USED_RESOLUTION_MS) } }] },
        { $set: { last_used_at: now } },
      );
    },
  };
}
export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
