import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { creationForm } from './create.upload.js';
import { testCreationLimit } from './test-mode.routes.js';
import { exportCsvRoute } from './export-csv.routes.js';
import { transactionActionRoutes } from './transaction-actions.routes.js';
import { signerAssuranceJson, summaryJson, transactionAssuranceJson } from './transactions.json.js';
import { createdSchema, creationForm as creationFormSchema, creationHeaders } from './creation.schemas.js';
import {
  detailSchema,
  listQuery,
  summarySchema,
  transactionId,
  type RequiredAssurance,
  type SignerLocale,
} from './transactions.schemas.js';

const TAGS = ['Transactions'];
const noSuchTransaction = () => new HttpError(404, 'no such transaction');

const multipartOnly = (req: Request, _res: Response, next: NextFunction) => {
  if (!req.is('multipart/form-data')) throw badRequest('the body must be multipart/form-data');
  next();
};

/** /api/transactions*: create (streamed multipart), list, detail; resend and cancel (transaction-actions.routes.ts), CSV export (export-csv.routes.ts). */
export function transactionsRoutes(ctx: GatewayContext): RouteModule {
  const auth = requireCaller(ctx);

  // The export before /{id}, so "export.csv" is not taken for an id.
  const routes = [
    createRoute(ctx),
    listRoute(ctx),
    exportCsvRoute(ctx, auth, TAGS),
    detailRoute(ctx),
    ...transactionActionRoutes(ctx, auth, TAGS),
  ];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}

const noStore = { 'Cache-Control': HEADERS.cacheControl };

function createRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
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
}

function listRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
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
        ownerId: callerOf(res).ownerId,
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
}

function detailRoute(ctx: GatewayContext) {
  const auth = requireCaller(ctx);
  return defineRoute({
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
        ownerId: callerOf(res).ownerId,
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
            required_assurance: (s.requiredAssurance || 'recorded') as RequiredAssurance,
            ...signerAssuranceJson(s),
            locale: (s.locale || null) as SignerLocale | null,
          })),
          ...transactionAssuranceJson(d.signers),
          events: d.events.map((e) => ({ type: e.type, at: e.at, actor: e.actor, detail: e.detail })),
          viewers: d.viewers.map((v) => ({ name: v.name, email: v.email, order: v.order })),
          retention_days: d.retentionDays,
          biometrics_delete_after: d.biometricsDeleteAfter ?? null,
          ...(d.biometricsErasedAt ? { biometrics_erased_at: d.biometricsErasedAt } : {}),
          expires_at: d.expiresAt ?? null,
          reminders: { sent: d.remindersSent, max: d.reminderMax, next_at: d.nextReminderAt ?? null },
          legal_hold: d.legalHold ? { since: d.legalHold.since, reason: d.legalHold.reason } : null,
          created_by: d.createdBy ? { user_id: d.createdBy, email: d.createdByEmail } : null,
        },
      };
    },
  });
}
