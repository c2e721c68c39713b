import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { BulkRepository } from '../store/bulk.repository.js';
import { runBulkJob, type BulkRunDeps } from '../usecases/run-bulk-job.js';

export type BulkJobDeps = Omit<BulkRunDeps, 'stopping'> & {
  bulk: BulkRunDeps['bulk'] & Pick<BulkRepository, 'dueJobs'>;
  logger: Logger;
  /** How often running jobs nobody holds (new, paused, or a killed replica's) are looked for. */
  intervalMs: number;
};

/**
 * The bulk send job: every `intervalMs` (at start, and when a job is accepted) claims the running
 * jobs whose lease is free or expired and runs them one after another (usecases/run-bulk-job.ts). The
 * jobs' progress lives on their rows, so a restart or another replica resumes where one stopped;
 * nothing is held in memory but the period. A job that fails is logged and resumed on a later pass.
 */
export function createBulkSendJob(deps: BulkJobDeps) {
  let stopping = false;
  const pass = async () => {
    for (const { _id } of await deps.bulk.dueJobs(deps.clock(), 20)) {
      if (stopping) return;
      try {
        const r = await runBulkJob({ ...deps, stopping: () => stopping }, _id);
        if (r === 'completed') deps.logger.info({ bulk_job: _id }, 'bulk job completed');
      } catch (err) {
        deps.logger.warn({ err, bulk_job: _id }, 'bulk job pass failed; resumed on a later pass');
      }
    }
  };
  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.intervalMs,
    failure: 'bulk send pass failed; next pass retries',
  });
  runner.start({ immediately: true });
  return {
    kick: () => void runner.run(),
    run: runner.run,
    async stop() {
      stopping = true;
      await runner.stop();
    },
  };
}
export type BulkSendJob = ReturnType<typeof createBulkSendJob>;
