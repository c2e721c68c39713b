import type { Client } from 'minio';
import { createOrphanSweep as createObjectSweep, type Logger, type OrphanSweepResult } from '@signet/kit';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';

export type OrphanSweepDeps = {
  s3: Client;
  repo: Pick<TransactionRepository, 'ownedKeys'>;
  tm: Pick<TransactionMetrics, 'orphansRemoved' | 'orphanSweeps' | 'uploadsAborted'>;
  logger: Logger;
  buckets: { documents: string; references: string };
  /** Objects younger than this are never considered (an upload may still be on its way to a record). */
  minAgeMs: number;
  /** 0: no timer; call run() yourself. */
  intervalMs: number;
};

export type SweepResult = { documents: number; references: number };

/**
 * Removes stored documents and reference photos no transaction points to (the kit's orphan sweep),
 * looking keys up by `document_key` / `reference_key` (indexed).
 */
export function createOrphanSweep(deps: OrphanSweepDeps) {
  const field = (bucket: string) => (bucket === deps.buckets.documents ? 'document_key' : 'reference_key');
  const sweep = createObjectSweep({
    s3: deps.s3,
    buckets: [deps.buckets.documents, deps.buckets.references],
    minAgeMs: deps.minAgeMs,
    logger: deps.logger,
    owned: (bucket, keys) => deps.repo.ownedKeys(field(bucket), keys),
    onRemoved: (bucket, n) => deps.tm.orphansRemoved.inc({ bucket }, n),
    onAborted: (bucket, n) => deps.tm.uploadsAborted.inc({ bucket }, n),
    onPass: (result) => deps.tm.orphanSweeps.inc({ result }),
  });
  sweep.start(deps.intervalMs);
  let last: { pass: Promise<OrphanSweepResult>; result: Promise<SweepResult> } | null = null;
  return {
    /** Runs a sweep, or joins the one already running in this process (the same promise). */
    run(): Promise<SweepResult> {
      const pass = sweep.runOnce();
      if (last?.pass !== pass)
        last = {
          pass,
          result: pass.then((r) => ({
            documents: r[deps.buckets.documents]!.removed,
            references: r[deps.buckets.references]!.removed,
          })),
        };
      return last.result;
    },
    stop: () => sweep.stop(),
  };
}
export type OrphanSweep = ReturnType<typeof createOrphanSweep>;
