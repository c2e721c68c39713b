import type { Connection, mongo } from 'mongoose';
import { asStored, isDuplicateKey, type OutboxEntry } from '@signet/kit';
import type { LogEntry, Status } from '../domain/transaction.js';
import { counterSchema, referenceSchema, tokenSchema, transactionSchema, type TransactionRecord } from './transaction.schema.js';
import { claimLease } from './lease.js';
import { storedTransaction } from './transaction.document.js';
import { createAccountSettingsStore } from './account-settings.repository.js';
import { createIdempotencyStore } from './idempotency.repository.js';
import { createLinkMailStore } from './link-mail.repository.js';

export { linkMailId, type IdempotencyRecord, type LinkMailKey, type TransactionRecord } from './transaction.schema.js';

const PROJECTION = { outbox: 0 } as const;
type DueErasure = Pick<TransactionRecord, '_id' | 'biometrics_delete_after' | 'erasure_request'>;
const ERASURE_LEASE = { holder: 'erasure_lease', until: 'erasure_lease_until' };

/** `test`: only test-mode transactions; otherwise only live ones (records without the flag are live). */
export type ListMatch = { status?: Status; query?: string; test?: boolean };

/**
 * The mode part of an owner's filter: test and live transactions are never mixed, and a deleted one
 * (a tombstone, domain/deletion.ts) is no longer the owner's to read, list, export or act on.
 */
export const modeFilter = (test: boolean | undefined) =>
  test ? { test: true, deleted_at: null } : { test: { $ne: true }, deleted_at: null };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The list's filter: owner first, then the page bound, the status and the search. `query` matches,
 * case-insensitively, the start of the reference or of one of its dash-separated parts
 * (`SIG-TX-00001234`, `TX-0000`, `00001234`, `0000`), or any part of a signer's name or email.
 * Plain `$regex` because FerretDB 1.x (SQLite) pushes no filter but `_id` equality down to storage:
 * no secondary index serves any list query there, so lower-cased search keys written at creation
 * would buy nothing locally; on MongoDB the owner's index bounds the scan.
 */
export function listFilter(ownerId: string, beforeId: number | undefined, match: ListMatch): Record<string, unknown> {
  const filter: Record<string, unknown> = { owner_id: ownerId, ...modeFilter(match.test) };
  if (beforeId !== undefined) filter._id = { $lt: beforeId };
  if (match.status) filter.status = match.status;
  if (match.query) {
    const text = escapeRegex(match.query);
    filter.$or = [
      { reference: { $regex: `(^|-)${text}`, $options: 'i' } },
      { 'signers.name': { $regex: text, $options: 'i' } },
      { 'signers.email': { $regex: text, $options: 'i' } },
    ];
  }
  return filter;
}

const transactionModels = (conn: Connection) => ({
  model: conn.model('Transaction', transactionSchema),
  counters: conn.model('Counter', counterSchema),
  references: conn.model('Reference', referenceSchema),
  tokens: conn.model('SigningToken', tokenSchema),
});
type TransactionModels = ReturnType<typeof transactionModels>;

/** The transactions, their ids, references and signing links, and the stores that live beside them. */
export function createTransactionRepository(conn: Connection) {
  const models = transactionModels(conn);
  const { model, counters, references, tokens } = models;
  const idempotencyKeys = createIdempotencyStore(conn);
  const mails = createLinkMailStore(conn);
  const settings = createAccountSettingsStore(conn);

  return {
    model,
    ...idempotencyKeys,
    ...mails,
    ...settings,
    async init() {
      await Promise.all([
        model.init(),
        counters.init(),
        references.init(),
        tokens.init(),
        idempotencyKeys.idempotency.init(),
        mails.initLinkMails(),
        settings.initAccountSettings(),
      ]);
    },
    ...transactionCreation(models),
    ...transactionReads(models),
    /**
     * The one way a transaction changes: conditional on the status and version it was read with.
     * Returns the updated record, or null when someone else changed it first.
     */
    async update(
      from: Pick<TransactionRecord, '_id' | 'status' | 'version'>,
      set: Partial<TransactionRecord>,
      log: LogEntry[],
      outbox: OutboxEntry[],
    ): Promise<TransactionRecord | null> {
      const push: Record<string, unknown> = {};
      if (log.length) push.log = { $each: log };
      if (outbox.length) push.outbox = { $each: outbox };
      // No projection here: FerretDB 1.x does not support findAndModify with `fields`.
      const doc = await model
        .findOneAndUpdate(
          { _id: from._id, status: from.status, version: from.version },
          { $set: set, $inc: { version: 1 }, ...(Object.keys(push).length ? { $push: push } : {}) },
          { new: true },
        )
        .lean<TransactionRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, ...rec } = doc;
      return rec;
    },
    ...biometricErasure(model),
  };
}

export type TransactionRepository = ReturnType<typeof createTransactionRepository>;

/** A new transaction: its id, its reference (claimed once ever), the record and its signing tokens. */
function transactionCreation({ model, counters, references, tokens }: TransactionModels) {
  // See nextId.
  let idQueue: Promise<unknown> = Promise.resolve();
  // Through the driver (every creation takes an id): the counter has nothing for mongoose to cast or default.
  const incrementId = async (): Promise<number> => {
    const filter: mongo.Document = { _id: 'transaction' };
    const doc = await counters.collection.findOneAndUpdate(
      filter,
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    return doc!.seq as number;
  };

  return {
    /**
     * The next integer id. On MongoDB `$inc` is atomic; FerretDB 1.x applies it as read-modify-write,
     * so this process also takes ids one at a time, and the unique _id of the insert catches a race
     * between replicas (the caller then takes the next id).
     */
    async nextId(): Promise<number> {
      const run = idQueue.then(() => incrementId());
      idQueue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    /** Claims a fresh reference; false when it was ever used before. */
    async claimReference(reference: string): Promise<boolean> {
      try {
        // Through the driver: the schema has nothing to cast or default here, and a mongoose document per
        // creation is CPU the rate is bound by (docs/decisions.md, session 10).
        const doc: Record<string, unknown> = { _id: reference, at: new Date() };
        await references.collection.insertOne(doc);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    /**
     * Inserts the record (false when its id is taken) and then its signing tokens. Through the driver,
     * as the schema stores it (transaction.document.ts): the outbox entries in the shape the relay's
     * `$pullAll` removes.
     */
    async insert(rec: TransactionRecord, outbox: OutboxEntry[]): Promise<boolean> {
      try {
        await model.collection.insertOne(
          storedTransaction(
            rec,
            outbox.map((e) => asStored(model, e)),
          ),
        );
      } catch (err) {
        if (isDuplicateKey(err) && (err as { keyPattern?: Record<string, unknown> }).keyPattern?.reference === undefined)
          return false;
        throw err;
      }
      try {
        await tokens.collection.insertMany(
          rec.signers.map((s): Record<string, unknown> => ({ _id: s.token, transaction_id: rec._id, signer_index: s.index })),
        );
      } catch (err) {
        // A record whose links cannot resolve must not stay: the caller refunds and cleans up.
        await model.deleteOne({ _id: rec._id });
        throw err;
      }
      return true;
    },
  };
}

/** Reading transactions: by id, the owner's, a signing token's, the owner's list and export, counts, stored keys. */
function transactionReads({ model, tokens }: TransactionModels) {
  return {
    /** Through the driver: every event about a transaction reads it, and mongoose's query machinery was CPU only (issue 20). */
    async findById(id: number): Promise<TransactionRecord | null> {
      const filter: mongo.Document = { _id: id };
      return model.collection.findOne<TransactionRecord>(filter, { projection: PROJECTION });
    },

    /** The owner's transaction in that mode (a live one is not found in test mode, and a test one otherwise). */
    async findOwned(ownerId: string, id: number, test = false): Promise<TransactionRecord | null> {
      return model.findOne({ _id: id, owner_id: ownerId, ...modeFilter(test) }, PROJECTION).lean<TransactionRecord>();
    },

    async resolveToken(token: string): Promise<{ transaction_id: number; signer_index: number } | null> {
      return tokens.findOne({ _id: token }).lean<{ transaction_id: number; signer_index: number }>();
    },

    /**
     * One owner's transactions, newest first, ids below `beforeId` when given; only those in `status`
     * and matching `query` (see listFilter) when given. The owner is always part of the filter.
     */
    async list(ownerId: string, limit: number, beforeId?: number, match: ListMatch = {}): Promise<TransactionRecord[]> {
      return model
        .find(listFilter(ownerId, beforeId, match), { outbox: 0, log: 0 })
        .sort({ _id: -1 })
        .limit(limit)
        .lean<TransactionRecord[]>();
    },

    /** A cursor over all of an owner's transactions, newest first, never loading them all. */
    cursor(ownerId: string, test = false) {
      return model
        .find({ owner_id: ownerId, ...modeFilter(test) }, { outbox: 0, log: 0 })
        .sort({ _id: -1 })
        .lean<TransactionRecord>()
        .cursor({ batchSize: 200 });
    },

    /** Which of `keys` a transaction record points to through `field` (one query per batch). */
    async ownedKeys(field: 'document_key' | 'reference_key', keys: string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      // A reference photo is the record's or, since issue 18, a signer's own.
      const refs = field === 'reference_key' ? [{ 'signers.reference_key': { $in: keys } }] : [];
      const docs = await model
        .find({ $or: [{ [field]: { $in: keys } }, ...refs] }, { [field]: 1, 'signers.reference_key': 1 })
        .lean<(Record<string, string> & { signers?: { reference_key?: string }[] })[]>();
      const found = docs.flatMap((d) => [d[field], ...(refs.length ? (d.signers ?? []).map((x) => x.reference_key) : [])]);
      return new Set(found.filter((k): k is string => !!k && keys.includes(k)));
    },

    async count(filter: Record<string, unknown> = {}): Promise<number> {
      return model.countDocuments(filter);
    },
  };
}

/** Biometric erasure (jobs/biometric-erasure.job.ts): due records, a claim per record, one completing write. */
function biometricErasure(model: TransactionModels['model']) {
  return {
    /** Ended transactions whose retention is over and whose biometric data is not yet erased, oldest due first. */
    async dueForErasure(now: Date, limit: number): Promise<DueErasure[]> {
      return model
        .find(
          // a legal hold suspends the erasure until released (docs/privacy.md)
          { biometrics_delete_after: { $lte: now }, biometrics_erased_at: null, legal_hold: null },
          { _id: 1, biometrics_delete_after: 1, erasure_request: 1 },
        )
        .sort({ biometrics_delete_after: 1 })
        .limit(limit)
        .lean<DueErasure[]>();
    },
    /**
     * Claims a record's erasure for `lease` until `until`, unless it is erased or another claim still
     * holds: one replica erases it, and a killed one's claim expires. The record as claimed, or null.
     */
    async claimErasure(id: number, lease: string, now: Date, until: Date): Promise<TransactionRecord | null> {
      const claim = { holder: lease, now, until };
      const filter = { biometrics_erased_at: null, legal_hold: null };
      return claimLease<TransactionRecord>(model, ERASURE_LEASE, id, filter, claim);
    },
    /** Marks the claimed erasure done with its log entry and event; false when the claim was lost or it is done. */
    async completeErasure(id: number, lease: string, at: Date, log: LogEntry, outbox: OutboxEntry[]): Promise<boolean> {
      const r = await model.updateOne(
        { _id: id, erasure_lease: lease, biometrics_erased_at: null },
        {
          $set: { biometrics_erased_at: at, reference_key: '', erasure_lease: null, erasure_lease_until: null },
          $inc: { version: 1 },
          $push: { log: { $each: [log] }, outbox: { $each: outbox } },
        },
      );
      return r.modifiedCount === 1;
    },
  };
}
