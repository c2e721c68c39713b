import type { BulkRepository } from '../store/bulk.repository.js';
import type { BulkJobView } from './get-bulk-job.js';

/** The caller's bulk jobs of its mode, newest first, with their counts (a running job's counted now); `cursor` the last id of the previous page. */
export async function listBulkJobs(
  deps: { bulk: Pick<BulkRepository, 'listJobs' | 'counts'> },
  who: { ownerId: string; test: boolean },
  page: { limit: number; cursor: string },
): Promise<{ jobs: BulkJobView[]; nextCursor: string }> {
  const limit = Math.min(Math.max(page.limit || 20, 1), 100);
  const jobs = await deps.bulk.listJobs(who.ownerId, who.test, limit + 1, page.cursor || undefined);
  const views = await Promise.all(
    jobs.slice(0, limit).map(async (job) => ({ job, counts: job.counts ?? (await deps.bulk.counts(job._id, job.rows)) })),
  );
  return { jobs: views, nextCursor: jobs.length > limit ? jobs[limit - 1]!._id : '' };
}
