import { Schema, type Connection } from 'mongoose';

export type EndpointRecord = {
  _id: string;
  owner_id: string;
  owner_email: string;
  url: string;
  event_types: string[];
  description: string;
  /**
   * The whsec_ signing secret, sealed (domain/secret-seal.ts): opened only to sign; shown only by
   * create and roll. `previous_secret` (sealed) still signs too until `previous_secret_until` (a roll's overlap).
   */
  secret: string;
  previous_secret?: string | null;
  previous_secret_until?: Date | null;
  enabled: boolean;
  disabled_reason: string;
  created_at: Date;
  updated_at: Date;
};

export type AttemptRecord = { at: Date; status: number; latency_ms: number; result: string; response_snippet: string };

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export type DeliveryRecord = {
  _id: string;
  endpoint_id: string;
  owner_id: string;
  webhook_id: string;
  event_type: string;
  transaction_id: number;
  /** The body, fixed when the fact was recorded: every attempt sends the same bytes. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts of the current round (reset by a manual redelivery): what the retry schedule counts. */
  round_attempts: number;
  next_attempt_at: Date | null;
  lease: string | null;
  lease_until: Date | null;
  attempts: AttemptRecord[];
  created_at: Date;
};

const endpointSchema = new Schema(
  {
    _id: String,
    owner_id: { type: String, required: true },
    owner_email: { type: String, default: '' },
    url: { type: String, required: true },
    event_types: [String],
    description: { type: String, default: '' },
    secret: { type: String, required: true },
    previous_secret: { type: String, default: null },
    previous_secret_until: { type: Date, default: null },
    enabled: { type: Boolean, default: true },
    disabled_reason: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_endpoints' },
);
// The owner's list and the fan-out's lookup of an owner's endpoints.
endpointSchema.index({ owner_id: 1, created_at: -1 });

const deliverySchema = new Schema(
  {
    _id: String,
    endpoint_id: { type: String, required: true },
    owner_id: { type: String, required: true },
    webhook_id: { type: String, required: true },
    event_type: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    payload: { type: String, required: true },
    status: { type: String, required: true },
    round_attempts: { type: Number, default: 0 },
    next_attempt_at: { type: Date, default: null },
    lease: { type: String, default: null },
    lease_until: { type: Date, default: null },
    attempts: [{ _id: false, at: Date, status: Number, latency_ms: Number, result: String, response_snippet: String }],
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'webhook_deliveries' },
);
// The delivery job's claim: pending deliveries by due time.
deliverySchema.index({ status: 1, next_attempt_at: 1 });
// An endpoint's delivery log, most recent first.
deliverySchema.index({ endpoint_id: 1, created_at: -1 });

const noSecret = { secret: 0, previous_secret: 0 } as const;
type Secrets = 'secret' | 'previous_secret';

/** Webhook endpoints and deliveries, in the transaction service's database; plain objects out. */
export function createWebhookRepository(conn: Connection) {
  const endpoints = conn.model('WebhookEndpoint', endpointSchema);
  const deliveries = conn.model('WebhookDelivery', deliverySchema);
  /** Updates the endpoint matching `filter`, its secrets left out of the answer; null when none matches. */
  const updateIf = async (filter: Record<string, unknown>, set: Partial<EndpointRecord>) => {
    // FerretDB 1.x refuses a projection on findAndModify: the secrets are dropped here instead.
    const doc = await endpoints.findOneAndUpdate(filter, { $set: set }, { new: true }).lean<EndpointRecord>();
    if (!doc) return null;
    const { secret: _secret, previous_secret: _previous, ...rest } = doc;
    return rest;
  };
  return {
    async init() {
      await endpoints.createIndexes();
      await deliveries.createIndexes();
    },

    // Endpoints: every query names the owner, except the delivery job's read by id.
    async insertEndpoint(rec: EndpointRecord): Promise<void> {
      await endpoints.create(rec);
    },
    async listEndpoints(ownerId: string): Promise<Omit<EndpointRecord, Secrets>[]> {
      return endpoints.find({ owner_id: ownerId }, noSecret).sort({ created_at: -1 }).limit(100).lean<EndpointRecord[]>();
    },
    async findEndpoint(ownerId: string, id: string): Promise<Omit<EndpointRecord, Secrets> | null> {
      return endpoints.findOne({ _id: id, owner_id: ownerId }, noSecret).lean<EndpointRecord>();
    },
    /** The endpoint with its secret, for signing. */
    async endpointForDelivery(id: string): Promise<EndpointRecord | null> {
      return endpoints.findOne({ _id: id }).lean<EndpointRecord>();
    },
    /** The owner's enabled endpoints subscribed to `type` that existed when it happened (a late consumer sends no older events to a new endpoint). */
    async subscribers(ownerId: string, type: string, occurredAt: Date): Promise<Pick<EndpointRecord, '_id'>[]> {
      return endpoints
        .find({ owner_id: ownerId, enabled: true, event_types: type, created_at: { $lte: occurredAt } }, { _id: 1 })
        .lean<EndpointRecord[]>();
    },
    async updateEndpoint(
      ownerId: string,
      id: string,
      set: Partial<EndpointRecord>,
    ): Promise<Omit<EndpointRecord, Secrets> | null> {
      return updateIf({ _id: id, owner_id: ownerId }, set);
    },
    /** A roll: replaces the secrets unless the current one changed since it was read (null then, or when gone). */
    async rollEndpointSecret(
      ownerId: string,
      id: string,
      from: string,
      set: Pick<EndpointRecord, 'secret' | 'previous_secret' | 'previous_secret_until' | 'updated_at'>,
    ): Promise<Omit<EndpointRecord, Secrets> | null> {
      return updateIf({ _id: id, owner_id: ownerId, secret: from }, set);
    },
    /** The owner's endpoint with its sealed secrets (for a roll). */
    async endpointWithSecret(ownerId: string, id: string): Promise<EndpointRecord | null> {
      return endpoints.findOne({ _id: id, owner_id: ownerId }).lean<EndpointRecord>();
    },
    /**
     * Seals the secrets stored in plaintext before they were sealed (once at start; each update is
     * conditional on the plaintext it replaces, so replicas starting together do it once). How many.
     */
    async sealPlaintextSecrets(seal: (secret: string, id: string) => string): Promise<number> {
      let n = 0;
      for (const field of ['secret', 'previous_secret'] as const) {
        const docs = await endpoints.find({ [field]: { $regex: '^whsec_' } }, { _id: 1, [field]: 1 }).lean<EndpointRecord[]>();
        for (const d of docs) {
          const plain = d[field]!;
          const r = await endpoints.updateOne({ _id: d._id, [field]: plain }, { $set: { [field]: seal(plain, d._id) } });
          n += r.modifiedCount;
        }
      }
      return n;
    },
    async deleteEndpoint(ownerId: string, id: string): Promise<boolean> {
      const r = await endpoints.deleteOne({ _id: id, owner_id: ownerId });
      if (r.deletedCount !== 1) return false;
      await deliveries.updateMany(
        { endpoint_id: id, status: 'pending' },
        { $set: { status: 'cancelled', next_attempt_at: null } },
      );
      return true;
    },
    /** Disables an enabled endpoint after persistent failure; false when it was already disabled or is gone. */
    async disableFailing(id: string, at: Date): Promise<boolean> {
      const r = await endpoints.updateOne(
        { _id: id, enabled: true },
        { $set: { enabled: false, disabled_reason: 'failing', updated_at: at } },
      );
      return r.modifiedCount === 1;
    },
    async countDisabled(): Promise<number> {
      return endpoints.countDocuments({ enabled: false, disabled_reason: 'failing' });
    },

    // Deliveries.
    /** Records one delivery of a fact to an endpoint unless it exists (its id is derived from both): idempotent. */
    async recordDelivery(rec: DeliveryRecord): Promise<void> {
      const { _id, ...rest } = rec;
      await deliveries.updateOne({ _id }, { $setOnInsert: rest }, { upsert: true });
    },
    async findDelivery(ownerId: string, endpointId: string, id: string): Promise<DeliveryRecord | null> {
      return deliveries.findOne({ _id: id, owner_id: ownerId, endpoint_id: endpointId }).lean<DeliveryRecord>();
    },
    async listDeliveries(ownerId: string, endpointId: string, limit: number): Promise<DeliveryRecord[]> {
      return deliveries
        .find({ owner_id: ownerId, endpoint_id: endpointId }, { payload: 0 })
        .sort({ created_at: -1 })
        .limit(limit)
        .lean<DeliveryRecord[]>();
    },
    /**
     * Claims one pending delivery due by `now` whose lease is free or expired, for `lease` until
     * `until`: replicas claim different deliveries, and a killed replica's claim expires so another
     * (or its restart) takes the delivery over with the same webhook-id.
     */
    async claimDue(lease: string, now: Date, until: Date): Promise<DeliveryRecord | null> {
      return deliveries
        .findOneAndUpdate(
          {
            status: 'pending',
            next_attempt_at: { $lte: now },
            $or: [{ lease_until: null }, { lease_until: { $lte: now } }],
          },
          { $set: { lease, lease_until: until } },
          { new: true, sort: { next_attempt_at: 1 } },
        )
        .lean<DeliveryRecord>();
    },
    /** Writes an attempt and what follows it under the claim; false when the claim was lost. */
    async completeAttempt(
      id: string,
      lease: string,
      attempt: AttemptRecord | null,
      next: { status: DeliveryStatus; next_attempt_at: Date | null; round_attempts: number },
    ): Promise<boolean> {
      const r = await deliveries.updateOne(
        { _id: id, lease },
        {
          $set: { ...next, lease: null, lease_until: null },
          ...(attempt ? { $push: { attempts: { $each: [attempt] } } } : {}),
        },
      );
      return r.modifiedCount === 1;
    },
    /** Makes a delivery due now again, as a new round of the schedule (same webhook-id). */
    async redeliver(ownerId: string, endpointId: string, id: string, now: Date): Promise<DeliveryRecord | null> {
      return deliveries
        .findOneAndUpdate(
          { _id: id, owner_id: ownerId, endpoint_id: endpointId },
          { $set: { status: 'pending', next_attempt_at: now, round_attempts: 0, lease: null, lease_until: null } },
          { new: true },
        )
        .lean<DeliveryRecord>();
    },
    /**
     * Deletes ended deliveries recorded before `before` (their payloads name signers): the log keeps
     * a retention window, in code because FerretDB has no TTL indexes. Returns how many went.
     */
    async pruneEnded(before: Date): Promise<number> {
      const r = await deliveries.deleteMany({
        status: { $in: ['delivered', 'failed', 'cancelled'] },
        created_at: { $lt: before },
      });
      return r.deletedCount ?? 0;
    },
    /** Pending deliveries (first attempts and retries not yet made): the retry backlog. */
    async countPending(): Promise<number> {
      return deliveries.countDocuments({ status: 'pending' });
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
