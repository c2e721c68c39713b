import {
  createOrphanSweep as createObjectSweep,
  type Logger,
  type Metrics,
  type OrphanBucketResult,
  type OrphanSweepResult,
} from '@signet/kit';
import type { Client as S3 } from 'minio';
import { parseCaptureKey } from '../domain/capture.js';
import { orphanSweepMetrics } from '../metrics.js';
import type { SessionRepository } from '../store/session.repository.js';

export { parseCaptureKey };

export type SweepResult = OrphanBucketResult;

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
 * Removes capture objects that no capture record points to (the kit's orphan sweep over the capture
 * bucket). Only keys in the capture layout (domain/capture.ts) are candidates; a capture is recorded within the
 * challenge's 2-minute lifetime of its upload or never (acceptCapture requires the unexpired nonce),
 * so an object older than that without a record stays unreferenced.
 */
export function createOrphanSweep(deps: OrphanSweepDeps) {
  const { removed: removedTotal, runs, aborted } = orphanSweepMetrics(deps.metrics);
  const sweep = createObjectSweep({
    s3: deps.s3,
    buckets: [deps.bucket],
    minAgeMs: deps.minAgeMs,
    logger: deps.logger,
    batchSize: deps.batchSize ?? 500,
    inLayout: (_bucket, key) => parseCaptureKey(key) !== null,
    owned: async (_bucket, keys) => {
      const known = await deps.sessions.captureKeysOf([...new Set(keys.map((k) => parseCaptureKey(k)!.sessionId))]);
      return new Set(keys.filter((k) => known.get(parseCaptureKey(k)!.sessionId)?.has(k)));
    },
    onRemoved: (_bucket, n) => removedTotal.inc(n),
    onAborted: (_bucket, n) => aborted.inc(n),
    onPass: (result) => runs.inc({ result }),
  });
  let last: { pass: Promise<OrphanSweepResult>; result: Promise<SweepResult> } | null = null;
  return {
    /** Runs one pass now, or joins the one already running in this process (the same promise). */
    runOnce(): Promise<SweepResult> {
      const pass = sweep.runOnce();
      if (last?.pass !== pass) last = { pass, result: pass.then((r) => r[deps.bucket]!) };
      return last.result;
    },
    /** Runs a pass every intervalMs (the first one after an interval, not at start-up). */
    start: (intervalMs: number) => sweep.start(intervalMs),
    stop: () => sweep.stop(),
  };
}
export type OrphanSweep = ReturnType<typeof createOrphanSweep>;
