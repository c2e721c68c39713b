import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKey, outboxField, outboxIndex, type OutboxEntry } from '@signet/kit';
import { emptyCounts, type BulkCounts, type BulkSignerInput, type RowStatus } from '../domain/bulk.js';

/** A bulk job (issue 33 item 4): who asked, against which template, and whose lease runs it now. */
export type BulkJobRecord = {
  _id: string;
  owner_id: string;
  test: boolean;
  org_name: string;
  sender_email: string;
  template_id: string;
  idempotency_key: string | null;
  fingerprint: string;
  source: string;
  rows: number;
  photos: number;
  state: 'running' | 'completed';
  counts: BulkCounts | null;
  created_at: Date;
  completed_at: Date | null;
  lease_holder: string | null;
  lease_until: Date | null;
};

/** One row: its input until the job ends (then cleared), its outcome, and its attempt (a new consumption id each). */
export type BulkRowRecord = {
  _id: string;
  job_id: string;
  index: number;
  signers: BulkSignerInput[];
  values: Record<string, string>;
  status: RowStatus;
  reason: string;
  transaction_id: number;
  reference: string;
  attempt: number;
  updated_at: Date;
};

export type BulkPhotoRecord = { _id: string; job_id: string; index: number; data: Buffer; kind: 'jpeg' | 'png' };

const jobSchema = new Schema(
  {
    _id: String,
    owner_id: { type: String, required: true },
    test: { type: Boolean, default: false },
    org_name: String,
    sender_email: String,
    template_id: String,
    idempotency_key: { type: String, default: null },
    fingerprint: String,
    source: String,
    rows: Number,
    photos: Number,
    state: String,
    counts: { type: Object, default: null },
    created_at: Date,
    completed_at: { type: Date, default: null },
    lease_holder: { type: String, default: null },
    lease_until: { type: Date, default: null },
    outbox: outboxField,
  },
  { collection: 'bulk_jobs', versionKey: false, minimize: false },
);
jobSchema.index({ owner_id: 1, test: 1, created_at: -1, _id: -1 });
jobSchema.index({ state: 1 });
jobSchema.index(...outboxIndex);

const rowSchema = new Schema(
  {
    _id: String,
    job_id: String,
    index: Number,
    signers: { type: [Object], default: undefined },
    values: { type: Object, default: undefined },
    status: String,
    reason: { type: String, default: '' },
    transaction_id: { type: Number, default: 0 },
    reference: { type: String, default: '' },
    attempt: { type: Number, default: 0 },
    updated_at: Date,
  },
  { collection: 'bulk_rows', versionKey: false, minimize: false },
);
rowSchema.index({ job_id: 1, index: 1 });
rowSchema.index({ job_id: 1, status: 1 });

const photoSchema = new Schema(
  { _id: String, job_id: String, index: Number, data: Buffer, kind: String },
  { collection: 'bulk_photos', versionKey: false },
);
photoSchema.index({ job_id: 1 });

export const rowId = (jobId: string, index: number) => `${jobId}:${index}`;

/** The bulk jobs, their rows and their photos (until the job ends). */
export function createBulkRepository(conn: Connection) {
  const jobs = conn.model<BulkJobRecord>('BulkJob', jobSchema);
  const rows = conn.model<BulkRowRecord>('BulkRow', rowSchema);
  const photos = conn.model<BulkPhotoRecord>('BulkPhoto', photoSchema);
  const own = (ownerId: string, test: boolean) => ({ owner_id: ownerId, test: test ? true : { $ne: true } });
  const jobProjection = { outbox: 0 };
  return {
    jobs,
    rows,
    photos,
    ...jobRows(rows, photos),
    ...jobLeases(jobs),
    async init() {
      await Promise.all([jobs.createIndexes(), rows.createIndexes(), photos.createIndexes()]);
    },
    async findJob(ownerId: string, test: boolean, id: string): Promise<BulkJobRecord | null> {
      return jobs.findOne({ _id: id, ...own(ownerId, test) }, jobProjection).lean<BulkJobRecord>();
    },
    async jobById(id: string): Promise<BulkJobRecord | null> {
      return jobs.findOne({ _id: id }, jobProjection).lean<BulkJobRecord>();
    },
    /** Newest first, after the cursor (a job id of the previous page) when given. */
    async listJobs(ownerId: string, test: boolean, limit: number, before?: string): Promise<BulkJobRecord[]> {
      const after = before
        ? await jobs.findOne({ _id: before, ...own(ownerId, test) }, { created_at: 1 }).lean<BulkJobRecord>()
        : null;
      const page = after
        ? { $or: [{ created_at: { $lt: after.created_at } }, { created_at: after.created_at, _id: { $lt: after._id } }] }
        : {};
      return jobs
        .find({ ...own(ownerId, test), ...page }, jobProjection)
        .sort({ created_at: -1, _id: -1 })
        .limit(limit)
        .lean<BulkJobRecord[]>();
    },
    /** The rows and photos first (each once, by id), then the job: once it exists, everything it runs on does. False: the job id exists. */
    async insertJob(job: BulkJobRecord, jobRows: BulkRowRecord[], jobPhotos: BulkPhotoRecord[]): Promise<boolean> {
      for (const [model, docs] of [
        [photos, jobPhotos],
        [rows, jobRows],
      ] as const) {
        for (let i = 0; i < docs.length; i += 200) {
          await (model as typeof rows).insertMany(docs.slice(i, i + 200), { ordered: false }).catch((err: unknown) => {
            if (!isDuplicateKey(err) && !(err as { writeErrors?: unknown[] }).writeErrors) throw err;
          });
        }
      }
      try {
        await jobs.create(job);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    /** After the end: the rows' names, e-mails and values and the photos are not kept. */
    async forgetInputs(id: string): Promise<void> {
      await rows.updateMany({ job_id: id }, { $unset: { signers: 1, values: 1 } });
      await photos.deleteMany({ job_id: id });
    },
  };
}
export type BulkRepository = ReturnType<typeof createBulkRepository>;

/** A job's rows: their counts and order, settling each once, and the photos they carry. */
function jobRows(rows: Model<BulkRowRecord>, photos: Model<BulkPhotoRecord>) {
  return {
    /** Each row's status count (rows past `size` are another request's leftovers and not counted). */
    async counts(jobId: string, size: number): Promise<BulkCounts> {
      const groups = await rows.aggregate<{ _id: RowStatus; n: number }>([
        { $match: { job_id: jobId, index: { $lt: size } } },
        { $group: { _id: '$status', n: { $sum: 1 } } },
      ]);
      const c = emptyCounts(size);
      for (const g of groups) if (g._id in c) c[g._id] = g.n;
      return c;
    },
    async rowsOf(jobId: string, size: number): Promise<BulkRowRecord[]> {
      return rows
        .find({ job_id: jobId, index: { $lt: size } }, { signers: 0, values: 0 })
        .sort({ index: 1 })
        .lean<BulkRowRecord[]>();
    },
    /** The job's pending rows in order, `limit` of them, but those at `except`. */
    async pendingRows(jobId: string, size: number, limit: number, except: number[] = []): Promise<BulkRowRecord[]> {
      return rows
        .find({ job_id: jobId, status: 'pending', index: except.length ? { $lt: size, $nin: except } : { $lt: size } })
        .sort({ index: 1 })
        .limit(limit)
        .lean<BulkRowRecord[]>();
    },
    async photo(jobId: string, index: number): Promise<BulkPhotoRecord | null> {
      return photos.findOne({ _id: rowId(jobId, index) }).lean<BulkPhotoRecord>();
    },
    /** Settles a pending row; false when it was no longer pending. */
    async settleRow(
      jobId: string,
      index: number,
      set: Pick<BulkRowRecord, 'status'> & Partial<Pick<BulkRowRecord, 'reason' | 'transaction_id' | 'reference'>>,
      now: Date,
    ): Promise<boolean> {
      const r = await rows.updateOne({ _id: rowId(jobId, index), status: 'pending' }, { $set: { ...set, updated_at: now } });
      return r.modifiedCount === 1;
    },
    /** Every row still pending: not sent, with the reason (quota and credits ran out). */
    async notSendRest(jobId: string, reason: string, now: Date): Promise<number> {
      const r = await rows.updateMany(
        { job_id: jobId, status: 'pending' },
        { $set: { status: 'not_sent', reason, updated_at: now } },
      );
      return r.modifiedCount;
    },
    async nextAttempt(jobId: string, index: number): Promise<void> {
      await rows.updateOne({ _id: rowId(jobId, index) }, { $inc: { attempt: 1 } });
    },
  };
}

/** The lease one replica holds on a running job while it sends it (a killed replica's lease expires). */
function jobLeases(jobs: Model<BulkJobRecord>) {
  return {
    /** Running jobs whose lease is free or expired (a killed replica's), oldest first. */
    async dueJobs(now: Date, limit: number): Promise<Pick<BulkJobRecord, '_id'>[]> {
      return jobs
        .find({ state: 'running', $or: [{ lease_until: null }, { lease_until: { $lte: now } }] }, { _id: 1 })
        .sort({ _id: 1 })
        .limit(limit)
        .lean<Pick<BulkJobRecord, '_id'>[]>();
    },
    /** Claims a running job for `holder` until `until` when no other claim still holds (the job without its outbox). */
    async claim(id: string, holder: string, now: Date, until: Date): Promise<BulkJobRecord | null> {
      // No projection: FerretDB's findAndModify has none.
      const doc = await jobs
        .findOneAndUpdate(
          { _id: id, state: 'running', $or: [{ lease_until: null }, { lease_until: { $lte: now } }] },
          { $set: { lease_holder: holder, lease_until: until } },
          { new: true },
        )
        .lean<BulkJobRecord & { outbox?: unknown }>();
      if (!doc) return null;
      const { outbox: _outbox, ...job } = doc;
      return job;
    },
    /** Extends the claim; false when another holder has it now (this one must stop). */
    async renew(id: string, holder: string, until: Date): Promise<boolean> {
      const r = await jobs.updateOne({ _id: id, lease_holder: holder, state: 'running' }, { $set: { lease_until: until } });
      return r.matchedCount === 1;
    },
    async release(id: string, holder: string): Promise<void> {
      await jobs.updateOne({ _id: id, lease_holder: holder }, { $set: { lease_holder: null, lease_until: null } });
    },
    /** Ends the job with its counts and its completion event in one write; false when not held by `holder`. */
    async complete(id: string, holder: string, counts: BulkCounts, now: Date, outbox: OutboxEntry): Promise<boolean> {
      const r = await jobs.updateOne(
        { _id: id, lease_holder: holder, state: 'running' },
        { $set: { state: 'completed', counts, completed_at: now, lease_holder: null, lease_until: null }, $push: { outbox } },
      );
      return r.modifiedCount === 1;
    },
  };
}
