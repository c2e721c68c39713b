import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import type { ChallengeRecord } from '../domain/challenge.js';
import {
  sessionId,
  type CaptureRecord,
  type CaptureRefusal,
  type Consent,
  type Session,
  type WebauthnRecord,
} from '../domain/session.js';

/** Sessions written before draws were counted have no field: they count as none drawn. */
const drawsFilter = (draws: number) => (draws === 0 ? { $in: [0, null] } : draws);

const sessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    transaction_id: { type: Number, required: true },
    signer_index: { type: Number, required: true },
    signer_email: { type: String, required: true },
    created_at: { type: Date, required: true },
    consent: { type: Object, default: null },
    challenge: { type: Object, default: null },
    attempt: { type: Number, default: 0 },
    draws: { type: Number, default: 0 },
    captures: { type: [Object], default: [] },
    refusals: { type: [Object], default: undefined },
    webauthn: { type: Object, default: null },
    forensic_batches: { type: Number, default: 0 },
    erasure: { type: Object, default: null },
    erased_at: { type: Date, default: null },
    erasure_lease: { type: String, default: null },
    erasure_lease_until: { type: Date, default: null },
    outbox: outboxField,
  },
  { versionKey: false, minimize: false },
);
// The verdict consumer finds a session by its transaction and signer (also the _id, but explicit).
sessionSchema.index({ transaction_id: 1, signer_index: 1 }, { unique: true });
sessionSchema.index(...outboxIndex);
// The erasure job asks which sessions have an erasure requested and not done.
sessionSchema.index({ erased_at: 1, 'erasure.requested_at': 1 });

const sessionModel = (conn: Connection) => conn.model('Session', sessionSchema, 'sessions');
type SessionModel = ReturnType<typeof sessionModel>;
type GetSession = (id: string) => Promise<Session | null>;

/** Fields may be missing on documents written by an older version (or empty arrays dropped by the store). */
const plain = (d: unknown): Session | null => {
  if (!d) return null;
  const s = d as Partial<Session> & { _id: string };
  return {
    ...(s as Session),
    consent: s.consent ?? null,
    challenge: s.challenge ?? null,
    attempt: s.attempt ?? 0,
    draws: s.draws ?? 0,
    captures: s.captures ?? [],
    webauthn: s.webauthn ?? null,
    forensic_batches: s.forensic_batches ?? 0,
    erasure: s.erasure ?? null,
    erased_at: s.erased_at ?? null,
  };
};

/** A signer's ceremony: its opening, its attempts and their verdicts, and the erasure of its capture media. */
export function createSessionRepository(conn: Connection) {
  const model = sessionModel(conn);
  const get: GetSession = async (id) => plain(await model.findById(id).lean());
  return {
    model,
    async init() {
      await model.createIndexes();
    },
    get,
    ...captureMedia(model),
    ...sessionOpening(model, get),
    ...sessionAttempts(model),
    ...sessionVerdicts(model, get),
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;

/** The capture media: the keys sessions point to (for the orphan sweep) and their erasure (jobs/biometric-erasure.job.ts). */
function captureMedia(model: SessionModel) {
  return {
    /** The object keys each session's capture records point to (one query for a batch of sessions; for the orphan sweep). */
    async captureKeysOf(ids: string[]): Promise<Map<string, Set<string>>> {
      const out = new Map<string, Set<string>>();
      if (!ids.length) return out;
      const docs = await model
        .find({ _id: { $in: ids } }, { captures: 1 })
        .lean<{ _id: string; captures?: Pick<CaptureRecord, 'video_key' | 'frame_key'>[] }[]>();
      for (const d of docs) out.set(d._id, new Set((d.captures ?? []).flatMap((c) => [c.video_key, c.frame_key])));
      return out;
    },
    /** Records the transaction's erasure request on each of its sessions not yet asked (the first reason stays). */
    async requestErasure(transactionId: number, reason: string, at: Date): Promise<number> {
      const r = await model.updateMany(
        { transaction_id: transactionId, erasure: null, erased_at: null },
        { $set: { erasure: { reason, requested_at: at } } },
      );
      return r.modifiedCount;
    },
    /** Sessions whose erasure was requested up to `now` and is not done, oldest request first. */
    async dueForErasure(now: Date, limit: number): Promise<string[]> {
      const docs = await model
        .find({ erased_at: null, 'erasure.requested_at': { $lte: now } }, { _id: 1 })
        .sort({ 'erasure.requested_at': 1 })
        .limit(limit)
        .lean<{ _id: string }[]>();
      return docs.map((d) => d._id);
    },
    /** Claims a session's erasure until `until` unless done or claimed by a live lease; the session as claimed, or null. */
    async claimErasure(id: string, lease: string, now: Date, until: Date): Promise<Session | null> {
      return plain(
        await model
          .findOneAndUpdate(
            {
              _id: id,
              erased_at: null,
              erasure: { $ne: null },
              $or: [{ erasure_lease_until: null }, { erasure_lease_until: { $lte: now } }],
            },
            { $set: { erasure_lease: lease, erasure_lease_until: until } },
            { new: true },
          )
          .lean(),
      );
    },
    /**
     * Marks the claimed erasure done: the capture records keep their hashes and lose their keys, and
     * the event goes in the same update. False when the claim was lost or it is done. Only the key
     * fields are written (`captures.<i>.video_key`), never the list read at claim time, so a write made
     * since (a deleted transaction's blanked addresses) is not undone.
     */
    async completeErasure(id: string, lease: string, at: Date, captures: CaptureRecord[], event: OutboxEntry): Promise<boolean> {
      const keys = Object.fromEntries(
        captures.flatMap((c, i) => [
          [`captures.${i}.video_key`, c.video_key],
          [`captures.${i}.frame_key`, c.frame_key],
        ]),
      );
      const r = await model.updateOne(
        { _id: id, erasure_lease: lease, erased_at: null },
        { $set: { erased_at: at, ...keys, erasure_lease: null, erasure_lease_until: null }, $push: { outbox: event } },
      );
      return r.modifiedCount === 1;
    },
    /** For the reconciliation: each session's erasure state (sessions not found are absent). */
    async erasureStateOf(ids: string[]): Promise<Map<string, Pick<Session, 'erasure' | 'erased_at'>>> {
      const out = new Map<string, Pick<Session, 'erasure' | 'erased_at'>>();
      if (!ids.length) return out;
      const docs = await model
        .find({ _id: { $in: ids } }, { erasure: 1, erased_at: 1 })
        .lean<{ _id: string; erasure?: Session['erasure']; erased_at?: Date | null }[]>();
      for (const d of docs) out.set(d._id, { erasure: d.erasure ?? null, erased_at: d.erased_at ?? null });
      return out;
    },
  };
}

/** First contact: the session created, and the consent recorded once. */
function sessionOpening(model: SessionModel, get: GetSession) {
  return {
    /** Creates the session on first contact (idempotent). */
    async ensure(s: { id: string; transactionId: number; signerIndex: number; signerEmail: string }): Promise<Session> {
      try {
        await model.updateOne(
          { _id: s.id },
          {
            $setOnInsert: {
              transaction_id: s.transactionId,
              signer_index: s.signerIndex,
              signer_email: s.signerEmail.toLowerCase(),
              created_at: new Date(),
              consent: null,
              challenge: null,
              attempt: 0,
              draws: 0,
              captures: [],
              webauthn: null,
              forensic_batches: 0,
              erasure: null,
              erased_at: null,
              outbox: [],
            },
          },
          { upsert: true },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      return (await get(s.id))!;
    },
    /** Records consent once: the filter on a null consent makes a second one match nothing. */
    async recordConsent(id: string, consent: Consent, event: OutboxEntry): Promise<Session | null> {
      return plain(
        await model
          .findOneAndUpdate({ _id: id, consent: null }, { $set: { consent }, $push: { outbox: event } }, { new: true })
          .lean(),
      );
    },
  };
}

/** An attempt: its challenge drawn, its live start and passkey, and how it ends (forfeited, captured or refused). */
function sessionAttempts(model: SessionModel) {
  return {
    /**
     * Replaces the challenge and counts the draw, guarded by the attempt and draw count seen when
     * it was decided (so two racing requests cannot both draw on one count).
     */
    async setChallenge(id: string, attempt: number, draws: number, challenge: ChallengeRecord): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, attempt, draws: drawsFilter(draws), consent: { $ne: null } },
        { $set: { challenge, webauthn: null, draws: draws + 1 } },
      );
      return r.modifiedCount === 1;
    },
    /** Marks the live challenge's stream as begun (it is never served again), once. */
    async startLive(id: string, nonce: string, at: Date, expiresAt: Date): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, 'challenge.nonce': nonce, 'challenge.mode': 'live', 'challenge.live_started_at': null },
        { $set: { 'challenge.live_started_at': at, 'challenge.expires_at': expiresAt } },
      );
      return r.modifiedCount === 1;
    },
    /**
     * Spends the attempt whose draws are used up: a capture record without media, failed, and the
     * event that tells the transaction; guarded like setChallenge.
     */
    async forfeitAttempt(id: string, draws: number, capture: CaptureRecord, event: OutboxEntry): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, attempt: capture.attempt - 1, draws: drawsFilter(draws) },
        {
          $set: { challenge: null, webauthn: null, attempt: capture.attempt, draws: 0 },
          $push: { captures: capture, outbox: event },
        },
      );
      return r.modifiedCount === 1;
    },
    /**
     * Accepts a capture only if its nonce is still the live challenge's and unexpired and no other
     * capture won meanwhile; the challenge is consumed and the event written in the same update.
     */
    async acceptCapture(id: string, capture: CaptureRecord, event: OutboxEntry, now: Date): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, attempt: capture.attempt - 1, 'challenge.nonce': capture.nonce, 'challenge.expires_at': { $gt: now } },
        { $set: { challenge: null, attempt: capture.attempt, draws: 0 }, $push: { captures: capture, outbox: event } },
      );
      return r.modifiedCount === 1;
    },
    /**
     * Uses up the challenge of a capture refused before analysis (below the required assurance): the
     * challenge is cleared, so the next recording is a new draw; the draw count stays. The refusal is
     * kept on the session. False when the challenge was replaced or consumed meanwhile.
     */
    async refuseCapture(id: string, nonce: string, refusal: CaptureRefusal): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, 'challenge.nonce': nonce },
        { $set: { challenge: null, webauthn: null }, $push: { refusals: refusal } },
      );
      return r.modifiedCount === 1;
    },
    async setWebauthn(id: string, nonce: string, rec: WebauthnRecord): Promise<boolean> {
      const r = await model.updateOne({ _id: id, 'challenge.nonce': nonce }, { $set: { webauthn: rec } });
      return r.modifiedCount === 1;
    },
  };
}

/** A capture's verdict, and the forensic batches a session may take. */
function sessionVerdicts(model: SessionModel, get: GetSession) {
  return {
    /** Records a verdict on the capture it names; a redelivery finds it already set and changes nothing. */
    async recordOutcome(
      transactionId: number,
      signerIndex: number,
      captureId: string,
      outcome: string,
      failedChecks: string[] = [],
    ): Promise<boolean> {
      const s = await get(sessionId(transactionId, signerIndex));
      if (!s) return false;
      const i = s.captures.findIndex((c) => c.capture_id === captureId);
      if (i < 0) return false;
      const r = await model.updateOne(
        { _id: s._id, [`captures.${i}.capture_id`]: captureId, [`captures.${i}.outcome`]: null },
        { $set: { [`captures.${i}.outcome`]: outcome, [`captures.${i}.failed_checks`]: failedChecks } },
      );
      return r.modifiedCount === 1;
    },
    /** Takes the next forensic batch number, or null when the session has used all of them. */
    async takeForensicBatch(id: string, max: number): Promise<number | null> {
      const d = await model
        .findOneAndUpdate({ _id: id, forensic_batches: { $lt: max } }, { $inc: { forensic_batches: 1 } }, { new: true })
        .lean<{ forensic_batches: number }>();
      return d ? d.forensic_batches : null;
    },
  };
}
