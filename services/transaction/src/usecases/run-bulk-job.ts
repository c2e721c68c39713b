import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { BulkCounts } from '../domain/bulk.js';
import type { BulkJobRecord, BulkRepository } from '../store/bulk.repository.js';
import type { BulkTemplateSource } from './bulk-template.js';
import { runBulkRow, type RowDeps } from './run-bulk-row.js';

export type BulkRunDeps = RowDeps & {
  bulk: Pick<
    BulkRepository,
    | 'claim'
    | 'renew'
    | 'release'
    | 'pendingRows'
    | 'counts'
    | 'notSendRest'
    | 'complete'
    | 'forgetInputs'
    | 'photo'
    | 'settleRow'
    | 'nextAttempt'
  >;
  templates: BulkTemplateSource;
  /** Publishes the job's outbox now (the sweep publishes it otherwise). */
  flush: (id: string) => Promise<void>;
  /** This replica's name on a lease. */
  holder: string;
  leaseMs: number;
  /** Rows created per second at most (each mails its signers): the mail server is not flooded. */
  rowsPerSecond: number;
  sleep: (ms: number) => Promise<void>;
  /** Asked between rows: the service is stopping (the lease is released, the rest resumes elsewhere). */
  stopping: () => boolean;
};

export const QUOTA_REASON = 'not sent: the monthly signature quota and the signature credits ran out';
const BATCH = 50;

/**
 * Runs one bulk job under a lease (whichever replica claims it; a killed one's lease expires and
 * another resumes it): creates the pending rows in order at most `rowsPerSecond`, renewing the lease
 * as it goes. When quota and credits run out, every row still pending is not sent, with the reason.
 * When no row is pending, the job completes with its counts and `bulk.completed` on its outbox in the
 * same write, and its rows' inputs and photos are dropped. Returns what became of the pass.
 */
export async function runBulkJob(deps: BulkRunDeps, jobId: string): Promise<'completed' | 'paused' | 'busy'> {
  const until = () => new Date(deps.clock().getTime() + deps.leaseMs);
  const job = await deps.bulk.claim(jobId, deps.holder, deps.clock(), until());
  if (!job) return 'busy';
  let held = true;
  try {
    const tpl = await deps.templates(job.owner_id, job.test, job.template_id);
    if (!tpl) await deps.bulk.notSendRest(job._id, 'not sent: the template was deleted', deps.clock());
    let next = Date.now();
    while (tpl) {
      const rows = await deps.bulk.pendingRows(job._id, job.rows, BATCH);
      if (!rows.length) break;
      for (const row of rows) {
        const wait = next - Date.now();
        if (wait > 0) await deps.sleep(wait);
        next = Math.max(next, Date.now() - 1000) + 1000 / deps.rowsPerSecond;
        if (deps.stopping()) return 'paused';
        if (!(await deps.bulk.renew(job._id, deps.holder, until()))) return ((held = false), 'busy');
        const outcome = await runBulkRow(deps, job, tpl, row);
        if (outcome === 'retry') return 'paused';
        if (outcome === 'quota') {
          const n = await deps.bulk.notSendRest(job._id, QUOTA_REASON, deps.clock());
          deps.tm.bulkRows.inc({ outcome: 'not_sent' }, n);
          break;
        }
      }
    }
    const counts = await deps.bulk.counts(job._id, job.rows);
    if (counts.pending) return 'paused';
    if (await deps.bulk.complete(job._id, deps.holder, counts, deps.clock(), completedEvent(job, counts))) {
      held = false;
      await deps.flush(job._id);
      await deps.bulk.forgetInputs(job._id);
    }
    return 'completed';
  } finally {
    if (held) await deps.bulk.release(job._id, deps.holder).catch(() => undefined);
  }
}

function completedEvent(job: BulkJobRecord, c: BulkCounts): OutboxEntry {
  return outboxEvent(events.bulkCompleted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    jobId: job._id,
    ownerId: job.owner_id,
    templateId: job.template_id,
    test: job.test,
    rows: c.rows,
    created: c.created,
    failed: c.failed,
    notSent: c.not_sent,
  }));
}
