import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { dueErasureReason } from '../domain/retention.js';
import { eraseTransactionBiometrics, type ErasureDeps } from '../usecases/erase-biometrics.js';

/** A transaction found this long past its retention means the job had stopped: counted for the alert. */
export const OVERDUE_MS = 3600_000;
const BATCH = 100;

export type ErasureJobDeps = ErasureDeps & {
  repo: Pick<TransactionRepository, 'dueForErasure'>;
  tm: Pick<TransactionMetrics, 'erasureOverdue'>;
  logger: Logger;
  /** 0: no timer; call run() yourself. */
  intervalMs: number;
};

/**
 * The retention job: every `intervalMs` (and at start), erases the biometric data of each ended
 * transaction whose retention is over, or whose signer's erasure request fell due (usecases/erase-biometrics.ts). Each record is claimed in the
 * store, so replicas running the job at once erase each record once; the state lives on the
 * records, so a restart picks up where a killed pass stopped. A record that fails is logged and
 * retried on the next pass once its claim expires.
 */
export function createErasureJob(deps: ErasureJobDeps) {
  const pass = async () => {
    for (;;) {
      const now = deps.clock();
      const due = await deps.repo.dueForErasure(now, BATCH);
      let erased = 0;
      for (const rec of due) {
        const late = rec.biometrics_delete_after && now.getTime() - new Date(rec.biometrics_delete_after).getTime() > OVERDUE_MS;
        try {
          // a signer's request that fell due is the reason; otherwise the retention ended
          if ((await eraseTransactionBiometrics(deps, rec._id, dueErasureReason(rec.erasure_request, now))) === 'erased') {
            erased++;
            if (late) deps.tm.erasureOverdue.inc({});
          }
        } catch (err) {
          deps.logger.warn({ err, transaction_id: rec._id }, 'biometric erasure failed; retried when its claim expires');
        }
      }
      if (erased) deps.logger.info({ erased }, 'biometric data erased at the end of its retention');
      if (due.length < BATCH || erased === 0) return;
    }
  };
  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.intervalMs || 60_000,
    failure: 'biometric erasure pass failed; next pass retries',
  });
  if (deps.intervalMs) runner.start({ immediately: true });
  return { run: runner.run, stop: runner.stop };
}
export type ErasureJob = ReturnType<typeof createErasureJob>;
