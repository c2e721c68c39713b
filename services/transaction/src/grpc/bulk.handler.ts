import type { transactionBulkV1 as bv } from '@signet/proto';
import type { BulkCounts } from '../domain/bulk.js';
import type { BulkJobRecord, BulkRowRecord } from '../store/bulk.repository.js';
import { acceptBulkJob, type AcceptBulkDeps } from '../usecases/accept-bulk-job.js';
import { getBulkJob } from '../usecases/get-bulk-job.js';
import { listBulkJobs } from '../usecases/list-bulk-jobs.js';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

const toJob = (job: BulkJobRecord, c: BulkCounts, rows: BulkRowRecord[] = [], replayed = false): bv.BulkJob => ({
  id: job._id,
  templateId: job.template_id,
  state: job.state,
  test: job.test,
  rows: c.rows,
  pending: c.pending,
  created: c.created,
  failed: c.failed,
  notSent: c.not_sent,
  createdAt: iso(job.created_at),
  completedAt: iso(job.completed_at),
  results: rows.map((r) => ({
    row: r.index,
    status: r.status,
    reason: r.reason ?? '',
    transactionId: r.transaction_id ?? 0,
    reference: r.reference ?? '',
  })),
  replayed,
});

export type BulkHandlerDeps = AcceptBulkDeps & Parameters<typeof getBulkJob>[0] & Parameters<typeof listBulkJobs>[0];

type Unary<Req, Res> = (req: Req) => Promise<Res>;
export type BulkHandlers = {
  createBulkJob: Unary<bv.CreateBulkJobRequest, bv.BulkJob>;
  getBulkJob: Unary<bv.GetBulkJobRequest, bv.BulkJob>;
  listBulkJobs: Unary<bv.ListBulkJobsRequest, bv.ListBulkJobsResponse>;
};

/** The BulkService RPCs: each maps its request, calls one use case and maps the answer. */
export function bulkHandlers(deps: BulkHandlerDeps): BulkHandlers {
  return {
    async createBulkJob(req: bv.CreateBulkJobRequest): Promise<bv.BulkJob> {
      const { job, replayed } = await acceptBulkJob(deps, {
        ownerId: req.ownerId,
        orgName: req.orgName,
        senderEmail: req.senderEmail,
        test: req.test,
        idempotencyKey: req.idempotencyKey,
        templateId: req.templateId,
        rows: req.rows.map((r) => ({
          signers: r.signers.map((s) => ({ role: s.role, name: s.name, email: s.email, photo: s.photo })),
          values: { ...r.values },
        })),
        photos: req.photos.map((p) => Buffer.from(p)),
        source: req.source,
      });
      const v = await getBulkJob(deps, { ownerId: job.owner_id, test: job.test }, job._id);
      return toJob(v.job, v.counts, v.rows, replayed);
    },
    async getBulkJob(req: bv.GetBulkJobRequest): Promise<bv.BulkJob> {
      const v = await getBulkJob(deps, { ownerId: req.ownerId, test: req.test }, req.id);
      return toJob(v.job, v.counts, v.rows);
    },
    async listBulkJobs(req: bv.ListBulkJobsRequest): Promise<bv.ListBulkJobsResponse> {
      const page = await listBulkJobs(deps, { ownerId: req.ownerId, test: req.test }, { limit: req.limit, cursor: req.cursor });
      return { jobs: page.jobs.map((v) => toJob(v.job, v.counts)), nextCursor: page.nextCursor };
    },
  };
}
