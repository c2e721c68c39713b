/**
 * The orphan-object sweep shared by services that upload to MinIO before they write the record that
 * names the object (transaction documents and references, ceremony captures). A request that fails
 * removes its own uploads; a process killed between upload and record write leaves objects no record
 * names, and this sweep removes them.
 *
 * Each bucket is listed; objects older than `minAgeMs` (so an upload still on its way to a record is
 * never touched) and in the service's key layout are looked up in batches through `owned`, and those
 * no record names are deleted. Multipart uploads started before the same cutoff and never completed
 * (a process killed mid-upload; invisible to listing, yet stored) are aborted. One pass at a time per
 * process (a second trigger joins the running one); replicas may sweep at once, since deleting an
 * object already deleted, or aborting an upload already aborted, changes nothing.
 */
import type { Client } from 'minio';
import type { Logger } from './logger.js';

export type OrphanBucketResult = {
  scanned: number;
  candidates: number;
  removed: number;
  unknownLayout: number;
  /** Incomplete multipart uploads older than the cutoff, aborted. */
  abortedUploads: number;
};
export type OrphanSweepResult = Record<string, OrphanBucketResult>;

export type OrphanSweepOptions = {
  s3: Client;
  buckets: string[];
  /** Objects younger than this are never considered. */
  minAgeMs: number;
  logger: Logger;
  /** Objects looked up and removed together (one lookup, one multi-delete). Default 200. */
  batchSize?: number;
  /** Which of `keys` (all in `bucket`) a record names. */
  owned(bucket: string, keys: string[]): Promise<Set<string>>;
  /** Keys the service writes; anything else is counted and logged, never deleted. Default: all. */
  inLayout?(bucket: string, key: string): boolean;
  /** Called with the number of objects removed from a bucket in a batch. */
  onRemoved?(bucket: string, count: number): void;
  /** Called with the number of stale incomplete multipart uploads aborted in a bucket. */
  onAborted?(bucket: string, count: number): void;
  /** Called after every pass. */
  onPass?(result: 'ok' | 'error'): void;
};

export function createOrphanSweep(o: OrphanSweepOptions) {
  const batchSize = o.batchSize ?? 200;
  let running: Promise<OrphanSweepResult> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const removeBatch = async (bucket: string, keys: string[]): Promise<number> => {
    const owned = await o.owned(bucket, keys);
    const orphans = keys.filter((k) => !owned.has(k));
    if (!orphans.length) return 0;
    const res = await o.s3.removeObjects(bucket, orphans);
    const failed = new Set(res.flat().flatMap((r) => (r?.Error?.Key ? [r.Error.Key] : [])));
    const removed = orphans.length - orphans.filter((k) => failed.has(k)).length;
    if (failed.size)
      o.logger.warn({ bucket, failed: failed.size }, 'orphan sweep could not remove some objects; next pass retries');
    if (removed) o.onRemoved?.(bucket, removed);
    return removed;
  };

  /**
   * Aborts multipart uploads begun before the cutoff. MinIO answers an unprefixed listing from its
   * in-memory table of uploads (it also expires stale ones itself, after 24 h by default); S3 keeps
   * them, and bills them, until aborted.
   */
  const abortStaleUploads = async (bucket: string, cutoff: number, out: OrphanBucketResult): Promise<void> => {
    let keyMarker = '';
    let uploadIdMarker = '';
    for (;;) {
      const page = await o.s3.listIncompleteUploadsQuery(bucket, '', keyMarker, uploadIdMarker, '');
      for (const u of page.uploads) {
        if (stopped) return;
        if (u.initiated.getTime() > cutoff || (o.inLayout && !o.inLayout(bucket, u.key))) continue;
        await o.s3.abortMultipartUpload(bucket, u.key, u.uploadId);
        out.abortedUploads++;
      }
      if (!page.isTruncated || !page.nextKeyMarker) return;
      keyMarker = page.nextKeyMarker;
      uploadIdMarker = page.nextUploadIdMarker;
    }
  };

  const sweepBucket = async (bucket: string): Promise<OrphanBucketResult> => {
    const cutoff = Date.now() - o.minAgeMs;
    const out: OrphanBucketResult = { scanned: 0, candidates: 0, removed: 0, unknownLayout: 0, abortedUploads: 0 };
    let batch: string[] = [];
    for await (const obj of o.s3.listObjectsV2(bucket, '', true) as AsyncIterable<{ name?: string; lastModified?: Date }>) {
      if (stopped) break;
      if (!obj.name) continue;
      out.scanned++;
      if (!obj.lastModified || obj.lastModified.getTime() > cutoff) continue;
      if (o.inLayout && !o.inLayout(bucket, obj.name)) {
        out.unknownLayout++;
        continue;
      }
      out.candidates++;
      batch.push(obj.name);
      if (batch.length >= batchSize) {
        out.removed += await removeBatch(bucket, batch);
        batch = [];
      }
    }
    if (batch.length && !stopped) out.removed += await removeBatch(bucket, batch);
    if (out.unknownLayout)
      o.logger.warn({ bucket, count: out.unknownLayout }, 'bucket holds objects outside the key layout; left alone');
    if (out.removed) o.logger.info({ bucket, removed: out.removed }, 'orphan objects removed');
    // A store that cannot list or abort uploads must not stop the object sweep of the other buckets.
    // Uploads aborted before a failure stay counted.
    if (!stopped)
      await abortStaleUploads(bucket, cutoff, out).catch((err: unknown) => {
        o.logger.warn({ err, bucket }, 'could not abort stale incomplete uploads; next pass retries');
      });
    if (out.abortedUploads) {
      o.onAborted?.(bucket, out.abortedUploads);
      o.logger.info({ bucket, aborted: out.abortedUploads }, 'stale incomplete uploads aborted');
    }
    return out;
  };

  const pass = async (): Promise<OrphanSweepResult> => {
    const out: OrphanSweepResult = {};
    for (const b of o.buckets) out[b] = await sweepBucket(b);
    return out;
  };

  /** Runs one pass now, or joins the one already running in this process. */
  const runOnce = (): Promise<OrphanSweepResult> => {
    running ??= pass()
      .then(
        (r) => {
          o.onPass?.('ok');
          return r;
        },
        (err: unknown) => {
          o.onPass?.('error');
          throw err;
        },
      )
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    runOnce,
    /** A pass every intervalMs (the first after one interval, not at start-up); 0 = no timer. */
    start(intervalMs: number) {
      if (intervalMs <= 0) return;
      timer = setInterval(() => {
        if (stopped || running) return;
        runOnce().catch((err: unknown) => o.logger.warn({ err }, 'orphan sweep failed; will retry'));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
export type OrphanSweep = ReturnType<typeof createOrphanSweep>;
