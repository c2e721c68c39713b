import type { Client } from 'minio';
import type { Logger } from '@signet/kit';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from './transaction.repository.js';

const BATCH = 200;

export type OrphanSweepDeps = {
  s3: Client;
  repo: Pick<TransactionRepository, 'ownedKeys'>;
  tm: Pick<TransactionMetrics, 'orphansRemoved'>;
  logger: Logger;
  buckets: { documents: string; references: string };
  /** Objects younger than this are never considered (an upload may still be on its way to a record). */
  minAgeMs: number;
  /** 0: no timer; call run() yourself. */
  intervalMs: number;
};

export type SweepResult = { documents: number; references: number };

/**
 * Removes stored objects no transaction points to: what a process killed between the upload and the
 * record write leaves behind (a failed request cleans up after itself). Each bucket is listed, objects
 * older than the minimum age are looked up in batches by key (`document_key` / `reference_key`,
 * indexed) and those no record names are deleted. One sweep at a time per process; replicas may sweep
 * at once, since deleting an object already deleted is a no-op in S3.
 */
export function createOrphanSweep(deps: OrphanSweepDeps) {
  let running: Promise<SweepResult> | undefined;

  async function sweepBucket(bucket: string, field: 'document_key' | 'reference_key'): Promise<number> {
    const cutoff = Date.now() - deps.minAgeMs;
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const keys = batch;
      batch = [];
      const owned = await deps.repo.ownedKeys(field, keys);
      const orphans = keys.filter((k) => !owned.has(k));
      if (!orphans.length) return;
      await deps.s3.removeObjects(bucket, orphans);
      removed += orphans.length;
      deps.tm.orphansRemoved.inc({ bucket }, orphans.length);
    };
    for await (const obj of deps.s3.listObjectsV2(bucket, '', true)) {
      const item = obj as { name?: string; lastModified?: Date };
      if (!item.name || !item.lastModified || item.lastModified.getTime() > cutoff) continue;
      batch.push(item.name);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length) await flush();
    return removed;
  }

  async function sweep(): Promise<SweepResult> {
    const documents = await sweepBucket(deps.buckets.documents, 'document_key');
    const references = await sweepBucket(deps.buckets.references, 'reference_key');
    if (documents || references) deps.logger.info({ documents, references }, 'orphan objects removed');
    return { documents, references };
  }

  /** Runs a sweep, or joins the one already running in this process. */
  const run = (): Promise<SweepResult> => {
    running ??= sweep().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer =
    deps.intervalMs > 0
      ? setInterval(() => {
          run().catch((err: unknown) => deps.logger.warn({ err }, 'orphan sweep failed; will retry'));
        }, deps.intervalMs)
      : undefined;
  timer?.unref();

  return {
    run,
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
export type OrphanSweep = ReturnType<typeof createOrphanSweep>;
