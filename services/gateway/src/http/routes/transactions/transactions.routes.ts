import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { transactionV1 } from '@signet/proto';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { creationForm } from './create.upload.js';
import { testCreationLimit } from './test-mode.routes.js';
import { csvRow } from './csv.js';
import {
  createdSchema,
  creationForm as creationFormSchema,
  creationHeaders,
  detailSchema,
  listQuery,
  summarySchema,
  transactionId,
} from './transactions.schemas.js';

const EXPORT_DEADLINE_MS = 10 * 60 * 1000;
const TAGS = ['Transactions'];
const noSuchTransaction = () => new HttpError(404, 'no such transaction');

/** The summary as the spec names its fields; verified_at only once verified. */
export function summaryJson(s: transactionV1.TransactionSummary): z.input<typeof summarySchema> {
  return {
    id: Number(s.id),
    token: s.token,
    signer_name: s.signerName,
    signer_email: s.signerEmail,
    status: s.status as z.input<typeof summarySchema>['status'],
    verification_mode: s.verificationMode,
    created_at: s.createdAt,
    ...(s.verifiedAt ? { verified_at: s.verifiedAt } : {}),
    reference: s.reference,
    test: s.test,
  };
}

const multipartOnly = (req: Request, _res: Response, next: NextFunction) => {
  if (!req.is('multipart/form-data')) throw badRequest('the body must be multipart/form-data');
  next();
};

/** /api/transactions*: create (streamed multipart), list, detail, resend, cancel, CSV export. */
export function transactionsRoutes(ctx: GatewayContext): RouteModule {
  const auth = requireCaller(ctx);
  const noStore = { 'Cache-Control': HEADERS.cacheControl };

  const create = defineRoute({
    method: 'post',
    path: '/api/transactions',
    operationId: 'createTransaction',
    summary: 'Create a transaction',
    description:
      'multipart/form-data; the document is streamed to storage, never buffered. Uses one signature of the monthly quota, or a credit. ' +
      'One signer (signer_name, signer_email, reference) or a list of parties (signers, a JSON array, with the part signer_photo_<index> for each face_match signer). ' +
      'Every reference photo must show exactly one face (checked with the biometrics models). Signers of order 1 are mailed at once; ' +
      'each next order once every signer of the one before passed. Any refusal is a 400 naming the field or signer, with nothing stored and no quota used.',
    tags: TAGS,
    security: 'caller',
    use: [auth, testCreationLimit(ctx), multipartOnly],
    headers: creationHeaders,
    rawBody: { content: { 'multipart/form-data': creationFormSchema } },
    responses: {
      201: {
        description: 'Created; the signing links are mailed to the signers of the first order',
        body: createdSchema,
        headers: {
          ...noStore,
          'Idempotent-Replayed': {
            description: 'true when this answers an earlier request with the same Idempotency-Key',
            schema: z.literal('true'),
          },
        },
      },
      ...errorResponses(400, 401, 402, 409, 413, 429),
    },
    async handle({ headers }, req, res) {
      const r = await bridgeUpload(req, creationForm(ctx, callerOf(res), headers['Idempotency-Key']));
      return {
        status: 201 as const,
        headers: r.replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
        body: {
          id: Number(r.id),
          reference: r.reference,
          token: r.token,
          sign_url: r.signUrl,
          status: r.status,
          test: isTestMode(res),
        },
      };
    },
  });

  const list = defineRoute({
    method: 'get',
    path: '/api/transactions',
    operationId: 'listTransactions',
    summary: "The caller's transactions, most recent first",
    description:
      'Optionally filtered by status and a search. X-Next-Cursor and Link give the next page (the Link keeps the filter).',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    query: listQuery,
    responses: {
      200: {
        description: 'One page of summaries',
        body: z.array(summarySchema),
        headers: { ...noStore, 'X-Next-Cursor': HEADERS.nextCursor, Link: HEADERS.link },
      },
      ...errorResponses(400, 401),
    },
    async handle({ query }, _req, res) {
      const { limit, cursor, status, q: text } = query;
      const page = await ctx.transaction.listTransactions({
        ownerId: callerOf(res).userId,
        limit: limit ?? 0,
        cursor: cursor ?? '',
        status: status ?? '',
        query: text ?? '',
        test: isTestMode(res),
      });
      const headers: Record<string, string> = {};
      if (page.nextCursor) {
        headers['X-Next-Cursor'] = page.nextCursor;
        // The next page keeps the filter: only the cursor changes.
        const next = new URLSearchParams({
          ...(limit ? { limit: String(limit) } : {}),
          ...(status ? { status } : {}),
          ...(text ? { q: text } : {}),
          cursor: page.nextCursor,
        });
        headers.Link = `</api/transactions?${next.toString()}>; rel="next"`;
      }
      return { status: 200 as const, headers, body: page.items.map(summaryJson) };
    },
  });

  // Before /{id}, so "export.csv" is not taken for an id.
  const exportCsv = defineRoute({
    method: 'get',
    path: '/api/transactions/export.csv',
    operationId: 'exportTransactions',
    summary: "All of the caller's transactions as CSV",
    description: 'Columns reference, signer, email, status, created, verified; streamed.',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    responses: {
      200: {
        description: 'CSV (RFC 4180), one transaction a line',
        content: { 'text/csv': z.string() },
        headers: {
          ...noStore,
          'Content-Disposition': { description: 'attachment; filename="transactions.csv"', schema: z.string() },
        },
      },
      ...errorResponses(401),
    },
    async handle(_input, req, res) {
      const stream = ctx.transaction.serverStream(
        transactionV1.TransactionServiceService.exportTransactions,
        { ownerId: callerOf(res).userId, test: isTestMode(res) },
        { deadlineMs: EXPORT_DEADLINE_MS },
      );
      const items = stream[Symbol.asyncIterator]();
      req.on('close', () => stream.cancel());
      // Before the first row: a failure is still an error answer.
      let first = await items.next();
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="transactions.csv"');
      res.setHeader('Cache-Control', 'no-store');
      const send = async (line: string) => {
        if (!res.write(line)) await new Promise((r) => res.once('drain', r));
      };
      await send(csvRow(['reference', 'signer', 'email', 'status', 'created', 'verified']));
      try {
        for (; !first.done; first = await items.next()) {
          const s = first.value;
          await send(csvRow([s.reference, s.signerName, s.signerEmail, s.status, s.createdAt, s.verifiedAt]));
        }
      } catch (err) {
        ctx.logger.warn({ err }, 'csv export stopped midway');
        res.destroy();
        return undefined;
      }
      res.end();
      return undefined;
    },
  });

  const detail = defineRoute({
    method: 'get',
    path: '/api/transactions/{id}',
    operationId: 'getTransaction',
    summary: 'One transaction with its signers and full event log',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      200: { description: 'The transaction', body: detailSchema, headers: noStore },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      const d = await ctx.transaction.getTransaction({
        ownerId: callerOf(res).userId,
        id: Number(params.id),
        test: isTestMode(res),
      });
      return {
        status: 200 as const,
        body: {
          ...summaryJson(d.summary!),
          attestation_type: d.attestationType,
          document_name: d.documentName,
          document_sha256: d.documentSha256,
          signers: d.signers.map((s) => ({
            index: s.index,
            name: s.name,
            email: s.email,
            state: s.state,
            verification_mode: s.verificationMode,
            attempts_left: s.attemptsLeft,
            role: s.role || 'signer',
            order: s.order || 1,
            webauthn: s.webauthn,
          })),
          events: d.events.map((e) => ({ type: e.type, at: e.at, actor: e.actor, detail: e.detail })),
          viewers: d.viewers.map((v) => ({ name: v.name, email: v.email, order: v.order })),
          retention_days: d.retentionDays,
          biometrics_delete_after: d.biometricsDeleteAfter ?? null,
          ...(d.biometricsErasedAt ? { biometrics_erased_at: d.biometricsErasedAt } : {}),
          expires_at: d.expiresAt ?? null,
          reminders: { sent: d.remindersSent, max: d.reminderMax, next_at: d.nextReminderAt ?? null },
        },
      };
    },
  });

  const resend = defineRoute({
    method: 'post',
    path: '/api/transactions/{id}/resend',
    operationId: 'resendTransaction',
    summary: 'Re-send the signing link',
    description: 'Only for a transaction not yet in a terminal state, at most once a minute; the state does not change.',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      200: { description: 'The summary after re-sending', body: summarySchema, headers: noStore },
      ...errorResponses(401, 404, 409, 429),
    },
    async handle({ params }, _req, res) {
      const s = await ctx.transaction.resendTransaction({
        ownerId: callerOf(res).userId,
        id: Number(params.id),
        test: isTestMode(res),
      });
      return { status: 200 as const, body: summaryJson(s) };
    },
  });

  const cancel = defineRoute({
    method: 'post',
    path: '/api/transactions/{id}/cancel',
    operationId: 'cancelTransaction',
    summary: 'Cancel a pending transaction',
    description: 'Irreversible: its signing links stop working and no certificate is issued.',
    tags: TAGS,
    security: 'caller',
    use: [auth],
    params: transactionId,
    invalidParams: noSuchTransaction,
    responses: {
      200: { description: 'The summary, cancelled', body: summarySchema, headers: noStore },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, _req, res) {
      const s = await ctx.transaction.cancelTransaction({
        ownerId: callerOf(res).userId,
        id: Number(params.id),
        test: isTestMode(res),
      });
      return { status: 200 as const, body: summaryJson(s) };
    },
  });

  const routes = [create, list, exportCsv, detail, resend, cancel];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
