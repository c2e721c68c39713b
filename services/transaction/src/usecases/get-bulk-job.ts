import { notFound } from '@signet/kit';
import type { BulkCounts } from '../domain/bulk.js';
import type { BulkJobRecord, BulkRepository, BulkRowRecord } from '../store/bulk.repository.js';

export const bulkJobNotFound = () => notFound('no such bulk job');

export type BulkJobView = { job: BulkJobRecord; counts: BulkCounts; rows?: BulkRowRecord[] };

/**
 * One of the caller's bulk jobs with its progress and each row's outcome (status, reason, the
 * transaction made); another owner's, or one of the other mode, is NOT_FOUND as an unknown id.
 */
export async function getBulkJob(
  deps: { bulk: Pick<BulkRepository, 'findJob' | 'counts' | 'rowsOf'> },
  who: { ownerId: string; test: boolean },
  id: string,
): Promise<BulkJobView> {
  const job = await deps.bulk.findJob(who.ownerId, who.test, id);
  if (!job) throw bulkJobNotFound();
  const [counts, rows] = await Promise.all([
    job.counts ?? deps.bulk.counts(job._id, job.rows),
    deps.bulk.rowsOf(job._id, job.rows),
  ]);
  return { job, counts, rows };
}
