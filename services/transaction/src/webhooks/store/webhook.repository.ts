import { Schema, type Connection } from 'mongoose';
import { modeFilter, type EndpointMode, type ModeScope } from '../domain/mode.js';

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
  /** Which transactions' events it receives; none stored (endpoints made before modes) is live. */
  mode?: EndpointMode;
  /** The first failed attempt since its last success (null: its last attempt succeeded); disabled after WEBHOOK_DISABLE_AFTER_MS. */
  failing_since?: Date | null;
  /** Its place among the owner's endpoints of its mode (0..cap-1), held in webhook_endpoint_slots: the cap stays exact under concurrent creates. */
  slot?: number | null;
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
    mode: { type: String },
    slot: { type: Number, default: null },
    failing_since: { type: Date, default: null },
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

/**
 * One document per taken place among an owner's endpoints of one mode: `_id` is owner:mode:slot, so
 * two creates racing for the last place cannot both insert it (the store's own _id uniqueness, no
 * transaction needed). Deleting the endpoint frees its place.
 */
type SlotRecord = { _id: string; endpoint_id: string; claimed_at: Date };
const slotSchema = new Schema(
  { _id: String, endpoint_id: { type: String, required: true }, claimed_at: { type: Date, required: true } },
  { versionKey: false, collection: 'webhook_endpoint_slots' },
);
const slotId = (ownerId: string, mode: EndpointMode, slot: number) => `${ownerId}:${mode}:${slot}`;
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

const noSecret = { secret: 0, previous_secret: 0 } as const;
type Secrets = 'secret' | 'previous_secret';

type Models = {
  endpoints: ReturnType<typeof endpointModel>;
  deliveries: ReturnType<typeof deliveryModel>;
  slots: ReturnType<typeof slotModel>;
};
const endpointModel = (conn: Connection) => conn.model('WebhookEndpoint', endpointSchema);
const deliveryModel = (conn: Connection) => conn.model('WebhookDelivery', deliverySchema);
const slotModel = (conn: Connection) => conn.model('WebhookEndpointSlot', slotSchema);

/** Webhook endpoints and deliveries, in the transaction service's database; plain objects out. */
export function createWebhookRepository(conn: Connection) {
  const m: Models = { endpoints: endpointModel(conn), deliveries: deliveryModel(conn), slots: slotModel(conn) };
  const places = slotMethods(m);
  return {
    async init() {
      await m.endpoints.createIndexes();
      await m.deliveries.createIndexes();
      await m.slots.createIndexes();
    },
    ...endpointMethods(m),
    claimSlot: places.claimSlot,
    releaseSlot: places.releaseSlot,
    ...startupMethods(m, places.claimSlot),
    ...failureMethods(m),
    ...deliveryMethods(m),
    ...attemptMethods(m),
  };
}

/**
 * The places among an owner's endpoints of one mode (the exact cap): take the first free one,
 * release one, and free those a crashed create left behind.
 */
function slotMethods({ endpoints, slots }: Models) {
  const placesOf = (ownerId: string, mode: EndpointMode, cap: number) =>
    Array.from({ length: cap }, (_, i) => slotId(ownerId, mode, i));
  /** Frees places older than a minute whose endpoint does not exist (a create stopped between its two writes). */
  const freeOrphanSlots = async (ownerId: string, mode: EndpointMode, cap: number, now: Date): Promise<number> => {
    const held = await slots
      .find({ _id: { $in: placesOf(ownerId, mode, cap) }, claimed_at: { $lt: new Date(now.getTime() - 60_000) } })
      .lean<SlotRecord[]>();
    if (!held.length) return 0;
    const there = new Set(
      (await endpoints.find({ _id: { $in: held.map((h) => h.endpoint_id) } }, { _id: 1 }).lean<EndpointRecord[]>()).map(
        (d) => d._id,
      ),
    );
    let n = 0;
    for (const h of held)
      if (!there.has(h.endpoint_id)) n += (await slots.deleteOne({ _id: h._id, endpoint_id: h.endpoint_id })).deletedCount ?? 0;
    return n;
  };
  /**
   * Takes the first free place of `cap` among the owner's endpoints of `mode` for `endpointId`; null
   * when all are taken. A place whose endpoint was never written (a create that crashed between the
   * two writes) is freed after a minute.
   */
  const claimSlot = async (
    ownerId: string,
    mode: EndpointMode,
    endpointId: string,
    cap: number,
    now: Date,
  ): Promise<number | null> => {
    for (let pass = 0; pass < 2; pass++) {
      const taken = new Set(
        (await slots.find({ _id: { $in: placesOf(ownerId, mode, cap) } }, { _id: 1 }).lean<SlotRecord[]>()).map((d) => d._id),
      );
      for (let i = 0; i < cap; i++) {
        if (taken.has(slotId(ownerId, mode, i))) continue;
        try {
          await slots.create({ _id: slotId(ownerId, mode, i), endpoint_id: endpointId, claimed_at: now });
          return i;
        } catch (err) {
          if (!isDuplicate(err)) throw err;
        }
      }
      if (pass === 0 && !(await freeOrphanSlots(ownerId, mode, cap, now))) return null;
    }
    return null;
  };

  return {
    claimSlot,
    async releaseSlot(ownerId: string, mode: EndpointMode, slot: number, endpointId: string): Promise<void> {
      await slots.deleteOne({ _id: slotId(ownerId, mode, slot), endpoint_id: endpointId });
    },
  };
}

/** Endpoints by their owner (every query names the owner, except the delivery job's read by id). */
function endpointMethods({ endpoints, deliveries, slots }: Models) {
  /** Updates the endpoint matching `filter`, its secrets left out of the answer; null when none matches. */
  const updateIf = async (filter: Record<string, unknown>, set: Partial<EndpointRecord>) => {
    // FerretDB 1.x refuses a projection on findAndModify: the secrets are dropped here instead.
    const doc = await endpoints.findOneAndUpdate(filter, { $set: set }, { new: true }).lean<EndpointRecord>();
    if (!doc) return null;
    const { secret: _secret, previous_secret: _previous, ...rest } = doc;
    return rest;
  };
  return {
    async insertEndpoint(rec: EndpointRecord): Promise<void> {
      await endpoints.create(rec);
    },
    async listEndpoints(ownerId: string, scope: ModeScope): Promise<Omit<EndpointRecord, Secrets>[]> {
      return endpoints
        .find({ owner_id: ownerId, ...modeFilter(scope) }, noSecret)
        .sort({ created_at: -1 })
        .limit(100)
        .lean<EndpointRecord[]>();
    },
    async countEndpoints(ownerId: string, mode: EndpointMode): Promise<number> {
      return endpoints.countDocuments({ owner_id: ownerId, ...modeFilter(mode) });
    },
    async findEndpoint(ownerId: string, id: string, scope: ModeScope): Promise<Omit<EndpointRecord, Secrets> | null> {
      return endpoints.findOne({ _id: id, owner_id: ownerId, ...modeFilter(scope) }, noSecret).lean<EndpointRecord>();
    },
    /** The endpoint with its secret, for signing. */
    async endpointForDelivery(id: string): Promise<EndpointRecord | null> {
      return endpoints.findOne({ _id: id }).lean<EndpointRecord>();
    },
    /** The owner's enabled endpoints subscribed to `type` that existed when it happened (a late consumer sends no older events to a new endpoint). */
    async subscribers(ownerId: string, type: string, occurredAt: Date): Promise<Pick<EndpointRecord, '_id' | 'mode'>[]> {
      return endpoints
        .find({ owner_id: ownerId, enabled: true, event_types: type, created_at: { $lte: occurredAt } }, { _id: 1, mode: 1 })
        .lean<EndpointRecord[]>();
    },
    async updateEndpoint(
      ownerId: string,
      id: string,
      scope: ModeScope,
      set: Partial<EndpointRecord>,
    ): Promise<Omit<EndpointRecord, Secrets> | null> {
      return updateIf({ _id: id, owner_id: ownerId, ...modeFilter(scope) }, set);
    },
    /** A roll: replaces the secrets unless the current one changed since it was read (null then, or when gone). */
    async rollEndpointSecret(
      ownerId: string,
      id: string,
      scope: ModeScope,
      from: string,
      set: Pick<EndpointRecord, 'secret' | 'previous_secret' | 'previous_secret_until' | 'updated_at'>,
    ): Promise<Omit<EndpointRecord, Secrets> | null> {
      return updateIf({ _id: id, owner_id: ownerId, ...modeFilter(scope), secret: from }, set);
    },
    /** The owner's endpoint with its sealed secrets (for a roll). */
    async endpointWithSecret(ownerId: string, id: string, scope: ModeScope): Promise<EndpointRecord | null> {
      return endpoints.findOne({ _id: id, owner_id: ownerId, ...modeFilter(scope) }).lean<EndpointRecord>();
    },
    async deleteEndpoint(ownerId: string, id: string, scope: ModeScope): Promise<boolean> {
      const doc = await endpoints.findOneAndDelete({ _id: id, owner_id: ownerId, ...modeFilter(scope) }).lean<EndpointRecord>();
      if (!doc) return false;
      if (typeof doc.slot === 'number' && doc.slot >= 0)
        await slots.deleteOne({ _id: slotId(ownerId, doc.mode === 'test' ? 'test' : 'live', doc.slot), endpoint_id: id });
      await deliveries.updateMany(
        { endpoint_id: id, status: 'pending' },
        { $set: { status: 'cancelled', next_attempt_at: null } },
      );
      return true;
    },
  };
}

/** Once at start, idempotent across replicas: places for endpoints made before places, sealed secrets. */
function startupMethods({ endpoints, slots }: Models, claimSlot: ReturnType<typeof slotMethods>['claimSlot']) {
  return {
    /** Gives endpoints stored before places existed a place each (once at start; idempotent). How many. */
    async placeUnslotted(cap: number, now: Date): Promise<number> {
      let n = 0;
      const docs = await endpoints.find({ slot: null }, { _id: 1, owner_id: 1, mode: 1 }).lean<EndpointRecord[]>();
      for (const d of docs) {
        const mode = d.mode === 'test' ? 'test' : 'live';
        // Past the cap (more were created before it was exact): -1, no place, still counted by the create's check.
        const slot = (await claimSlot(d.owner_id, mode, d._id, cap, now)) ?? -1;
        const r = await endpoints.updateOne({ _id: d._id, slot: null }, { $set: { slot, mode } });
        if (r.modifiedCount) n++;
        else if (slot >= 0) await slots.deleteOne({ _id: slotId(d.owner_id, mode, slot), endpoint_id: d._id });
      }
      return n;
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
  };
}

/** An endpoint's failure streak and its disabling. */
function failureMethods({ endpoints }: Models) {
  return {
    /** Disables an enabled endpoint after persistent failure; false when it was already disabled or is gone. */
    async disableFailing(id: string, at: Date): Promise<boolean> {
      const r = await endpoints.updateOne(
        { _id: id, enabled: true },
        { $set: { enabled: false, disabled_reason: 'failing', updated_at: at } },
      );
      return r.modifiedCount === 1;
    },
    /** Starts the endpoint's failure streak unless one runs (at), or ends it (null). */
    async setFailingSince(id: string, at: Date | null): Promise<void> {
      await endpoints.updateOne(at ? { _id: id, failing_since: null } : { _id: id }, { $set: { failing_since: at } });
    },
    async countDisabled(): Promise<number> {
      return endpoints.countDocuments({ enabled: false, disabled_reason: 'failing' });
    },
  };
}

/** Deliveries: recorded once per fact and endpoint, listed, redelivered, pruned. */
function deliveryMethods({ deliveries }: Models) {
  return {
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

/** Attempts: a delivery claimed under a lease (once across replicas), who holds how many, and the attempt's outcome. */
function attemptMethods({ deliveries }: Models) {
  return {
    /**
     * Claims one pending delivery due by `now` whose lease is free or expired, for `lease` until
     * `until`: replicas claim different deliveries, and a killed replica's claim expires so another
     * (or its restart) takes the delivery over with the same webhook-id.
     */
    async claimDue(
      lease: string,
      now: Date,
      until: Date,
      skip: { endpoints?: string[]; owners?: string[] } = {},
    ): Promise<DeliveryRecord | null> {
      return deliveries
        .findOneAndUpdate(
          {
            status: 'pending',
            next_attempt_at: { $lte: now },
            $or: [{ lease_until: null }, { lease_until: { $lte: now } }],
            // Fair delivery: endpoints and owners already at their share of attempts in flight wait.
            ...(skip.endpoints?.length ? { endpoint_id: { $nin: skip.endpoints } } : {}),
            ...(skip.owners?.length ? { owner_id: { $nin: skip.owners } } : {}),
          },
          { $set: { lease, lease_until: until } },
          { new: true, sort: { next_attempt_at: 1 } },
        )
        .lean<DeliveryRecord>();
    },
    /** Deliveries being attempted now by any replica (claimed, lease not expired): who holds how many attempts. */
    async inFlight(now: Date): Promise<Pick<DeliveryRecord, '_id' | 'endpoint_id' | 'owner_id'>[]> {
      return deliveries
        .find({ status: 'pending', lease_until: { $gt: now } }, { _id: 1, endpoint_id: 1, owner_id: 1 })
        .lean<DeliveryRecord[]>();
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
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
