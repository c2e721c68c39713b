import { DomainError, RpcError, type Logger } from '@signet/kit';
import { status } from '@grpc/grpc-js';
import { prefillValue, rowConsumptionId, rowIdempotencyKey } from '../domain/bulk.js';
import type { TransactionMetrics } from '../metrics.js';
import type { BulkJobRecord, BulkRepository, BulkRowRecord } from '../store/bulk.repository.js';
import type { BulkTemplate, RowCreator } from './bulk-template.js';

/** How often a row is tried before it is failed with the last error (each try after a refund is a new attempt). */
export const MAX_ROW_ATTEMPTS = 5;

export type RowDeps = {
  bulk: Pick<BulkRepository, 'photo' | 'settleRow' | 'nextAttempt'>;
  createRow: RowCreator;
  /** The transaction a creation under this Idempotency-Key wrote (a row interrupted after its write), or null. */
  createdUnder: (ownerId: string, test: boolean, key: string) => Promise<{ id: number; reference: string } | null>;
  /**
   * Removes a creation's claim of an Idempotency-Key that is still pending and older than `olderThan`
   * (its creator died before writing the transaction); a younger claim is left alone.
   */
  releaseClaim: (ownerId: string, test: boolean, key: string, olderThan: Date) => Promise<void>;
  /** How old a pending claim must be before it is taken for a dead replica's (creations take far less: their calls have deadlines). */
  staleClaimMs: number;
  tm: Pick<TransactionMetrics, 'bulkRows'>;
  logger: Logger;
  clock: () => Date;
};

/**
 * created / failed: the row is settled; quota: nothing more can be sent; retry: the row stays pending
 * for a later pass (something failed: the pass stops); skip: its creation is in flight elsewhere or its
 * claim is not yet stale (the pass goes on with the other rows).
 */
export type RowOutcome = 'created' | 'failed' | 'quota' | 'retry' | 'skip';

const reasonOf = (err: unknown) => (err instanceof DomainError ? err.reason : err instanceof RpcError ? err.reason : '');
const isInvalid = (err: unknown) =>
  (err instanceof DomainError && ['invalid_argument', 'not_found', 'payload_too_large'].includes(err.kind)) ||
  (err instanceof RpcError && [status.INVALID_ARGUMENT, status.NOT_FOUND].includes(err.code));

/**
 * Creates one pending row's transaction under the row's own Idempotency-Key and consumption id (both
 * derived from the job and the row), so a row resumed after a crash never creates or consumes twice.
 * A refusal of the row (a field, a photo) fails it with the reason; quota and credits running out
 * stop the job; anything else leaves it pending for the next pass (a new attempt, since the failed
 * creation refunded its consumption), until MAX_ROW_ATTEMPTS.
 */
export async function runBulkRow(deps: RowDeps, job: BulkJobRecord, tpl: BulkTemplate, row: BulkRowRecord): Promise<RowOutcome> {
  const key = rowIdempotencyKey(job._id, row.index);
  try {
    const r = await deps.createRow({
      begin: {
        ownerId: job.owner_id,
        orgName: job.org_name,
        idempotencyKey: key,
        test: job.test,
        ...(job.sender_email ? { senderEmail: job.sender_email } : {}),
        consumptionId: rowConsumptionId(job._id, row.index, row.attempt),
      },
      templateId: job.template_id,
      signers: row.signers.map(({ role, name, email }) => ({ role, name, email })),
      valuesJson: JSON.stringify(typedValues(tpl, row.values)),
      photos: await photosOf(deps, job, tpl, row),
    });
    return settle(deps, job, row, { status: 'created', transaction_id: r.id, reference: r.reference });
  } catch (err) {
    if (reasonOf(err) === 'QUOTA_EXHAUSTED') return 'quota';
    if (isInvalid(err)) return settle(deps, job, row, { status: 'failed', reason: (err as Error).message.slice(0, 500) });
    if (reasonOf(err) === 'IDEMPOTENCY_KEY_IN_PROGRESS') return resume(deps, job, row, key);
    if (row.attempt + 1 >= MAX_ROW_ATTEMPTS) {
      deps.logger.warn({ err, bulk_job: job._id, row: row.index }, 'bulk row failed on every attempt');
      return settle(deps, job, row, {
        status: 'failed',
        reason: 'the transaction could not be created; try this row again later',
      });
    }
    deps.logger.warn({ err, bulk_job: job._id, row: row.index }, 'bulk row not created; retried on a later pass');
    await deps.bulk.nextAttempt(job._id, row.index);
    return 'retry';
  }
}

/**
 * The row's key is claimed but no creation answered here: a replica died mid-row, or (a lease taken
 * over from a slow replica) one is still creating it. Its transaction was written (found by the key:
 * the row is created) or not: the claim is released only once it is older than `staleClaimMs`, so a
 * creation still in flight is never raced; the row is tried again on a later pass, under the same
 * consumption id (a consumption that was taken is reused).
 */
async function resume(deps: RowDeps, job: BulkJobRecord, row: BulkRowRecord, key: string): Promise<RowOutcome> {
  const tx = await deps.createdUnder(job.owner_id, job.test, key);
  if (tx) return settle(deps, job, row, { status: 'created', transaction_id: tx.id, reference: tx.reference });
  await deps.releaseClaim(job.owner_id, job.test, key, new Date(deps.clock().getTime() - deps.staleClaimMs));
  return 'skip';
}

async function settle(
  deps: RowDeps,
  job: BulkJobRecord,
  row: BulkRowRecord,
  set: Parameters<RowDeps['bulk']['settleRow']>[2],
): Promise<RowOutcome> {
  if (await deps.bulk.settleRow(job._id, row.index, set, deps.clock())) deps.tm.bulkRows.inc({ outcome: set.status });
  return set.status === 'created' ? 'created' : 'failed';
}

/** The row's values with a checkbox's text as its boolean. */
function typedValues(tpl: BulkTemplate, values: Record<string, string> | undefined) {
  const types = new Map(tpl.fields.map((f) => [f.id, f.type]));
  return Object.fromEntries(Object.entries(values ?? {}).map(([id, v]) => [id, prefillValue(types.get(id), v)]));
}

/** Each signer's photo by the index of its role in the template. */
async function photosOf(deps: RowDeps, job: BulkJobRecord, tpl: BulkTemplate, row: BulkRowRecord) {
  const out = new Map<number, Buffer>();
  for (const s of row.signers) {
    if (s.photo < 0) continue;
    const p = await deps.bulk.photo(job._id, s.photo);
    if (!p) throw new Error(`bulk job ${job._id}: photo ${s.photo} is missing`);
    out.set(
      tpl.roles.findIndex((r) => r.name === s.role),
      bytesOf(p.data),
    );
  }
  return out;
}

/** A stored Buffer as read with lean(): a BSON Binary (its bytes in `buffer`) or already a Buffer. */
function bytesOf(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  const bin = data as { buffer: Uint8Array };
  return Buffer.from(bin.buffer.buffer, bin.buffer.byteOffset, bin.buffer.byteLength);
}
