import type { Model } from 'mongoose';

/**
 * The re-timestamping state of sealed signed PDFs (B-LTA), kept on their `signed_pdfs` records
 * beside what the sealing job writes: `ts_not_after` (when the newest timestamp's TSA certificate
 * expires; null: the PDF has none), `ts_wait_until` (a claim's lease, or the wait after a failure),
 * `ts_renewals`, `ts_failures` and `sha256_before` (the hashes of the versions served before). A PDF is due when `ts_not_after` is within the margin: the margin
 * is applied when claiming, so a changed margin applies to every PDF. Written through the collection
 * itself (the fields are this job's own; the sealing schema does not list them).
 */
export type RetimestampRecord = {
  reference: string;
  object_key: string;
  size: number;
  /** The stored PDF's SHA-256 (GET /api/verify finds the certificate by it). */
  sha256?: string;
  ts_not_after?: Date | null;
  ts_renewals?: number;
  ts_failures?: number;
};

type AnyModel = Model<any>;

const free = (now: Date) => ({ $or: [{ ts_wait_until: { $exists: false } }, { ts_wait_until: { $lte: now } }] });

export function createRetimestampRepository(model: AnyModel) {
  const col = model.collection;
  const strip = (d: Record<string, unknown>): RetimestampRecord => {
    const { _id, ...rest } = d;
    return { ...(rest as RetimestampRecord), reference: String(rest.reference ?? _id) };
  };
  const claim = async (filter: Record<string, unknown>, now: Date, leaseMs: number) => {
    const d = await col.findOneAndUpdate(
      { status: 'sealed', ...filter, ...free(now) },
      { $set: { ts_wait_until: new Date(now.getTime() + leaseMs) } },
      { sort: { ts_not_after: 1 }, returnDocument: 'after' },
    );
    return d ? strip(d) : null;
  };
  return {
    async init() {
      await col.createIndex({ status: 1, ts_not_after: 1 });
    },
    /** A sealed PDF whose timestamps were never read (sealed before B-LTA, or just now), for `leaseMs`. */
    claimUnread: (now: Date, leaseMs: number) => claim({ ts_not_after: { $exists: false } }, now, leaseMs),
    /** A sealed PDF whose newest timestamp's TSA certificate expires before `until`, for `leaseMs` (one replica at a time). */
    claimDue: (now: Date, until: Date, leaseMs: number) => claim({ ts_not_after: { $lte: until } }, now, leaseMs),
    /** The timestamps of the stored PDF as read: when its newest TSA certificate expires (null: it has no timestamp). */
    async schedule(reference: string, objectKey: string, notAfter: Date | null): Promise<void> {
      await col.updateOne(
        { _id: reference as never, status: 'sealed', object_key: objectKey },
        { $set: { ts_not_after: notAfter, ts_failures: 0 }, $unset: { ts_wait_until: 1 } },
      );
    },
    /**
     * The PDF with its new document timestamp, stored under `next.object_key`, replaces the one read
     * (only if the record still names it: false when the transaction was deleted meanwhile). `waitUntil`:
     * not looked at again before (a renewal whose TSA certificate is itself within the margin).
     */
    async renewed(
      rec: RetimestampRecord,
      next: { object_key: string; size: number; sha256: string; notAfter: Date; at: Date; waitUntil: Date | null },
    ): Promise<boolean> {
      const r = await col.updateOne(
        { _id: rec.reference as never, status: 'sealed', object_key: rec.object_key },
        {
          $set: {
            object_key: next.object_key,
            size: next.size,
            sha256: next.sha256,
            ts_not_after: next.notAfter,
            ts_renewed_at: next.at,
            ts_failures: 0,
            ...(next.waitUntil ? { ts_wait_until: next.waitUntil } : {}),
          },
          $inc: { ts_renewals: 1 },
          // The hashes of the versions served before (a relying party may hold one of them).
          ...(rec.sha256 ? { $push: { sha256_before: rec.sha256 } as never } : {}),
          ...(next.waitUntil ? {} : { $unset: { ts_wait_until: 1 } }),
        },
      );
      return r.modifiedCount === 1;
    },
    async failed(reference: string, retryAt: Date, failures: number): Promise<void> {
      await col.updateOne(
        { _id: reference as never, status: 'sealed' },
        { $set: { ts_wait_until: retryAt, ts_failures: failures } },
      );
    },
    /** The earliest end of validity of a newest timestamp among the sealed PDFs (the metric), or null. */
    async earliestExpiry(): Promise<Date | null> {
      const d = await col
        .find({ status: 'sealed', ts_not_after: { $type: 'date' } })
        .sort({ ts_not_after: 1 })
        .limit(1)
        .next();
      return (d?.ts_not_after as Date | undefined) ?? null;
    },
  };
}

export type RetimestampRepository = ReturnType<typeof createRetimestampRepository>;
