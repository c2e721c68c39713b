import type { Logger, Metrics } from '@signet/kit';
import type { Client as S3 } from 'minio';
import { sessionId, type SessionRepository } from '../store/session.repository.js';

/**
 * The capture handler's key layout: `{transactionId}/{signerIndex}/{captureId}/{video|frame}.{ext}`
 * (see capture.handler.ts). The session is `{transactionId}:{signerIndex}`.
 */
const CAPTURE_KEY =
  /^(\d{1,15})\/(\d{1,6})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(?:video|frame)\.[a-z0-9]{2,5}$/;

export function parseCaptureKey(key: string): { sessionId: string; captureId: string } | null {
  const m = CAPTURE_KEY.exec(key);
  if (!m) return null;
  return { sessionId: sessionId(Number(m[1]), Number(m[2])), captureId: m[3]! };
}

export type SweepResult = { scanned: number; candidates: number; removed: number; unknownLayout: number };

export type OrphanSweepDeps = {
  s3: S3;
  bucket: string;
  sessions: Pick<SessionRepository, 'captureKeysOf'>;
  /** Objects younger than this are never looked at, so uploads in flight are left alone. */
  minAgeMs: number;
  metrics: Metrics;
  logger: Logger;
  /** Objects looked up and removed together (one session query, one multi-delete). */
  batchSize?: number;
};

/**
 * Removes capture objects that no capture record points to: what a process killed between the upload
 * and `acceptCapture` leaves behind (a failed request removes its own uploads). Only objects older than
 * minAgeMs and in the capture key layout are candidates; a capture is recorded within the challenge's
 * 2-minute lifetime of its upload or never (acceptCapture requires the unexpired nonce), so an object
 * older than that without a record stays unreferenced. One pass at a time per process; across replicas
 * a pass is idempotent (deleting an absent object succeeds).
 */
export function createOrphanSweep(deps: OrphanSweepDeps) {
  const batchSize = deps.batchSize ?? 500;
  const removedTotal = deps.metrics.counter(
    'signet_ceremony_orphans_removed_total',
    'Capture objects removed by the orphan sweep (no capture record points to them)',
  );
  const runs = deps.metrics.counter('signet_ceremony_orphan_sweeps_total', 'Orphan sweep passes by result', ['result']);
  let running: Promise<SweepResult> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const removeBatch = async (batch: { key: string; sessionId: string }[]): Promise<number> => {
    const known = await deps.sessions.captureKeysOf([...new Set(batch.map((b) => b.sessionId))]);
    const orphans = batch.filter((b) => !known.get(b.sessionId)?.has(b.key)).map((b) => b.key);
    if (!orphans.length) return 0;
    const res = await deps.s3.removeObjects(deps.bucket, orphans);
    const failed = new Set(res.flat().flatMap((r) => (r?.Error?.Key ? [r.Error.Key] : [])));
    const removed = orphans.filter((k) => !failed.has(k));
    if (failed.size) deps.logger.warn({ failed: failed.size }, 'orphan sweep could not remove some objects; next pass retries');
    if (removed.length) {
      removedTotal.inc(removed.length);
      deps.logger.info({ removed: removed.length }, 'orphan capture objects removed');
    }
    return removed.length;
  };

  const pass = async (): Promise<SweepResult> => {
    const cutoff = Date.now() - deps.minAgeMs;
    const out: SweepResult = { scanned: 0, candidates: 0, removed: 0, unknownLayout: 0 };
    let batch: { key: string; sessionId: string }[] = [];
    for await (const obj of deps.s3.listObjectsV2(deps.bucket, '', true) as AsyncIterable<{
      name?: string;
      lastModified?: Date;
    }>) {
      if (stopped) break;
      if (!obj.name) continue;
      out.scanned++;
      if (!obj.lastModified || obj.lastModified.getTime() > cutoff) continue;
      const parsed = parseCaptureKey(obj.name);
      if (!parsed) {
        // Not written by the capture handler: left for a person to look at, never deleted blindly.
        out.unknownLayout++;
        continue;
      }
      out.candidates++;
      batch.push({ key: obj.name, sessionId: parsed.sessionId });
      if (batch.length >= batchSize) {
        out.removed += await removeBatch(batch);
        batch = [];
      }
    }
    if (batch.length && !stopped) out.removed += await removeBatch(batch);
    if (out.unknownLayout)
      deps.logger.warn({ count: out.unknownLayout }, 'capture bucket holds objects outside the capture key layout');
    return out;
  };

  /** Runs one pass now, or joins the one already running in this process. */
  const runOnce = (): Promise<SweepResult> => {
    running ??= pass()
      .then(
        (r) => {
          runs.inc({ result: 'ok' });
          return r;
        },
        (err: unknown) => {
          runs.inc({ result: 'error' });
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
    /** Runs a pass every intervalMs (the first one after an interval, not at start-up). */
    start(intervalMs: number) {
      timer = setInterval(() => {
        if (stopped || running) return;
        runOnce().catch((err: unknown) => deps.logger.warn({ err }, 'orphan sweep failed; will retry'));
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
