import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import type { BulkCounts } from '../domain/bulk.js';
import type { BulkJobRecord, BulkRepository } from '../store/bulk.repository.js';
import type { BulkTemplate, BulkTemplateSource } from './bulk-template.js';
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
  /** Rows being created at once. */
  concurrency: number;
  sleep: (ms: number) => Promise<void>;
  /** Asked between rows: the service is stopping (the lease is released, the rest resumes elsewhere). */
  stopping: () => boolean;
};

export const QUOTA_REASON = 'not sent: the monthly signature quota and the signature credits ran out';
const BATCH = 50;

/**
 * Runs one bulk job under a lease (whichever replica claims it; a killed one's lease expires and
 * another resumes it): creates the pending rows (createRows), then, when no row is pending, completes
 * the job with its counts and `bulk.completed` on its outbox in the same write, and drops its rows'
 * inputs and photos. Returns what became of the pass.
 */
export async function runBulkJob(deps: BulkRunDeps, jobId: string): Promise<'completed' | 'paused' | 'busy'> {
  const job = await deps.bulk.claim(jobId, deps.holder, deps.clock(), new Date(deps.clock().getTime() + deps.leaseMs));
  if (!job) return 'busy';
  let held = true;
  try {
    const tpl = await deps.templates(job.owner_id, job.test, job.template_id);
    if (!tpl) await deps.bulk.notSendRest(job._id, 'not sent: the template was deleted', deps.clock());
    const stop = tpl ? await createRows(deps, job, tpl) : 'done';
    if (stop === 'lost') held = false;
    if (stop !== 'done') return stop === 'lost' ? 'busy' : 'paused';
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

/** Hands out start times `1 / rowsPerSecond` apart (a second's worth may start at once after a pause). */
function pacer(rowsPerSecond: number, sleep: (ms: number) => Promise<void>) {
  let next = Date.now();
  return async () => {
    const at = Math.max(next, Date.now() - 1000);
    next = at + 1000 / rowsPerSecond;
    if (at > Date.now()) await sleep(at - Date.now());
  };
}

/**
 * Creates the pending rows, `concurrency` at a time and at most `rowsPerSecond`, renewing the lease
 * as it goes ('lost': another replica holds it now; nothing more is done here). When quota and
 * credits run out, every row still pending is not sent, with the reason. A row to retry, or the
 * service stopping, ends the pass ('paused'): the next pass, here or elsewhere, resumes.
 */
async function createRows(deps: BulkRunDeps, job: BulkJobRecord, tpl: BulkTemplate): Promise<'done' | 'paused' | 'lost'> {
  const pace = pacer(deps.rowsPerSecond, deps.sleep);
  const rank = { paused: 1, quota: 2, lost: 3 } as const;
  let stop: keyof typeof rank | null = null;
  const halt = (why: keyof typeof rank) => void (stop = stop && rank[stop] >= rank[why] ? stop : why);
  let renewedAt = 0;
  // Rows whose creation is in flight elsewhere (or whose claim is not yet stale): left for a later pass.
  const skipped: number[] = [];
  for (;;) {
    const rows = stop ? [] : await deps.bulk.pendingRows(job._id, job.rows, BATCH, skipped);
    if (!rows.length) break;
    let i = 0;
    const worker = async () => {
      while (!stop && i < rows.length) {
        const row = rows[i++]!;
        await pace();
        if (deps.stopping()) return halt('paused');
        if (stop) return;
        if (Date.now() - renewedAt > deps.leaseMs / 3) {
          renewedAt = Date.now();
          const until = new Date(deps.clock().getTime() + deps.leaseMs);
          if (!(await deps.bulk.renew(job._id, deps.holder, until))) return halt('lost');
        }
        const outcome = await runBulkRow(deps, job, tpl, row);
        if (outcome === 'skip') skipped.push(row.index);
        if (outcome === 'retry') halt('paused');
        if (outcome === 'quota') halt('quota');
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.concurrency, rows.length) }, worker));
  }
  if (stop === 'quota') {
    deps.tm.bulkRows.inc({ outcome: 'not_sent' }, await deps.bulk.notSendRest(job._id, QUOTA_REASON, deps.clock()));
    return 'done';
  }
  return stop ?? (skipped.length ? 'paused' : 'done');
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
