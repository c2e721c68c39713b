import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { transactionBulkV1 as bv } from '@signet/proto';
import { callerOf, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes, parseWith } from '../../route.js';
import { refuseBadText } from '../../text.js';
import { testCreationLimit } from '../transactions/test-mode.routes.js';
import { idempotencyKey } from '../transactions/transactions.schemas.js';
import { csvRows, jsonRows, type BulkInput } from './bulk-input.js';
import { bulkJobSchema, bulkJsonBody, bulkListQuery, bulkJobId, templateId } from './bulk.schemas.js';

const TAGS = ['Bulk send'];
/** The whole upload travels to the transaction service in one message (8 MB at most there). */
const BODY_LIMIT = '7mb';
const noSuchJob = () => new HttpError(404, 'no such bulk job');
const noSuchTemplate = () => new HttpError(404, 'no such template');

const iso = (s: string) => (s ? s : null);
export function bulkJobJson(j: bv.BulkJob, withRows: boolean) {
  return {
    id: j.id,
    template_id: j.templateId,
    state: j.state as 'running' | 'completed',
    test: j.test,
    rows: j.rows,
    pending: j.pending,
    created: j.created,
    failed: j.failed,
    not_sent: j.notSent,
    created_at: j.createdAt,
    completed_at: iso(j.completedAt),
    ...(withRows
      ? {
          results: j.results.map((r) => ({
            row: r.row,
            status: r.status as 'pending' | 'created' | 'failed' | 'not_sent',
            ...(r.reason ? { reason: r.reason } : {}),
            ...(r.transactionId ? { transaction_id: Number(r.transactionId), reference: r.reference } : {}),
          })),
        }
      : {}),
  };
}

/** text/csv or application/json, each read whole (bounded); anything else is a 400. */
const bodyParsers = [
  express.json({ limit: BODY_LIMIT }),
  express.text({ type: 'text/csv', limit: BODY_LIMIT }),
  (req: Request, _res: Response, next: NextFunction) => {
    if (!req.is('text/csv') && !req.is('application/json')) throw badRequest('the body must be text/csv or application/json');
    next();
  },
];

/** /api/templates/{id}/bulk (send a template to many signers) and /api/bulk (the jobs and their progress). */
export function bulkRoutes(ctx: GatewayContext): RouteModule {
  const routes = [createRoute(ctx), getRoute(ctx), listRoute(ctx)];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}

const noStore = { 'Cache-Control': HEADERS.cacheControl };

function createRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'post',
    path: '/api/templates/{id}/bulk',
    operationId: 'createBulkJob',
    summary: 'Bulk send: one transaction from the template per row (CSV or JSON, up to 1,000 rows)',
    description:
      'text/csv: a header, then one row per transaction; each role of the template has the columns <role>_name and <role>_email ' +
      '(and <role>_photo, a base64 JPEG or PNG, for a face-match role), each prefilled value the column value_<field id>. ' +
      'application/json: {"rows": [{"signers": {"<role>": {"name", "email", "photo"?}}, "values"?: {"<field id>": …}}]}. ' +
      'A missing column, an unknown role or field, or a row beyond 1,000 is a 400 and nothing is stored; a row of its own ' +
      'problem (an invalid e-mail, a missing name or photo) is failed with its reason and the others are sent. The job is ' +
      'stored before the answer and runs in the background: each row uses a signature of the quota or a credit as a creation ' +
      'does, and when both run out the remaining rows are not sent (each says so). The same Idempotency-Key returns the first job.',
    tags: TAGS,
    security: 'caller',
    use: [auth, testCreationLimit(ctx), ...bodyParsers],
    params: templateId,
    invalidParams: noSuchTemplate,
    headers: z.object({ 'Idempotency-Key': idempotencyKey.optional() }),
    rawBody: { content: { 'text/csv': z.string(), 'application/json': bulkJsonBody } },
    responses: {
      202: {
        description: 'Accepted: the job, with each row pending or failed with its reason',
        body: bulkJobSchema,
        headers: {
          ...noStore,
          Location: { description: 'The job: GET it for the progress', schema: z.string(), required: true },
          'Idempotent-Replayed': {
            description: 'true when this answers an earlier upload with the same Idempotency-Key',
            schema: z.literal('true'),
          },
        },
      },
      ...errorResponses(400, 401, 404, 409, 413, 429),
    },
    async handle({ params, headers }, req, res) {
      const input: BulkInput = req.is('text/csv')
        ? csvRows(typeof req.body === 'string' ? req.body : '')
        : jsonRows(parseWith(bulkJsonBody, req.body, 'body'));
      // The one text rule, cell by cell (a CSV's line ends are not text).
      refuseBadText(input.rows, 'body');
      const caller = callerOf(res);
      const job = await ctx.bulk.createBulkJob({
        ownerId: caller.ownerId,
        orgName: caller.orgName,
        idempotencyKey: headers['Idempotency-Key'] ?? '',
        test: caller.mode === 'test',
        senderEmail: caller.email,
        templateId: params.id,
        rows: input.rows,
        photos: input.photos,
        source: req.is('text/csv') ? 'csv' : 'json',
      });
      return {
        status: 202 as const,
        body: bulkJobJson(job, true),
        headers: {
          'Cache-Control': 'no-store',
          Location: `/api/bulk/${job.id}`,
          ...(job.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
        },
      };
    },
  });
}

function getRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'get',
    path: '/api/bulk/{id}',
    operationId: 'getBulkJob',
    summary: 'A bulk job: its progress and each row’s outcome',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: bulkJobId,
    invalidParams: noSuchJob,
    responses: {
      200: { description: 'The job with each row (status, reason, the transaction made)', body: bulkJobSchema, headers: noStore },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      const caller = callerOf(res);
      const job = await ctx.bulk.getBulkJob({ ownerId: caller.ownerId, test: caller.mode === 'test', id: params.id });
      return { status: 200 as const, body: bulkJobJson(job, true), headers: { 'Cache-Control': 'no-store' } };
    },
  });
}

function listRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
    method: 'get',
    path: '/api/bulk',
    operationId: 'listBulkJobs',
    summary: 'The bulk jobs, newest first, with their counts',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    query: bulkListQuery,
    responses: {
      200: {
        description: 'A page of jobs (without their rows)',
        body: z.array(bulkJobSchema),
        headers: { ...noStore, 'X-Next-Cursor': HEADERS.nextCursor },
      },
      ...errorResponses(400, 401),
    },
    async handle({ query }, _req, res) {
      const caller = callerOf(res);
      const page = await ctx.bulk.listBulkJobs({
        ownerId: caller.ownerId,
        test: caller.mode === 'test',
        limit: query.limit ?? 20,
        cursor: query.cursor ?? '',
      });
      return {
        status: 200 as const,
        body: page.jobs.map((j) => bulkJobJson(j, false)),
        headers: { 'Cache-Control': 'no-store', ...(page.nextCursor ? { 'X-Next-Cursor': page.nextCursor } : {}) },
      };
    },
  });
}
