import { Router } from 'express';
import { transactionV1 } from '@signet/proto';
import { callerOf, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { creationForm } from './create.upload.js';
import { csvRow } from './csv.js';
import { transactionsOpenapi } from './transactions.openapi.js';
import { firstIssue, idempotencyKey, listQuery } from './transactions.schemas.js';

const EXPORT_DEADLINE_MS = 10 * 60 * 1000;

/** The summary as the spec names its fields; verified_at only once verified. */
function summaryJson(s: transactionV1.TransactionSummary) {
  return {
    id: Number(s.id),
    token: s.token,
    signer_name: s.signerName,
    signer_email: s.signerEmail,
    status: s.status,
    verification_mode: s.verificationMode,
    created_at: s.createdAt,
    ...(s.verifiedAt ? { verified_at: s.verifiedAt } : {}),
    reference: s.reference,
  };
}

/** A path id: digits only; anything else is a transaction that does not exist (404, never 400). */
function pathId(raw: string | string[] | undefined): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
  return Number(raw);
}

/** /api/transactions*: create (streamed multipart), list, detail, resend, cancel, CSV export. */
export function transactionsRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const auth = requireCaller(ctx);

  router.post('/api/transactions', auth, async (req, res) => {
    const caller = callerOf(res);
    if (!req.is('multipart/form-data')) throw badRequest('the body must be multipart/form-data');
    const rawKey = req.get('idempotency-key');
    let key: string | undefined;
    if (rawKey !== undefined) {
      const k = idempotencyKey.safeParse(rawKey);
      if (!k.success) throw badRequest(firstIssue(k.error));
      key = k.data;
    }
    const r = await bridgeUpload(req, creationForm(ctx, caller, key));
    if (r.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({ id: Number(r.id), reference: r.reference, token: r.token, sign_url: r.signUrl, status: r.status });
  });

  router.get('/api/transactions', auth, async (req, res) => {
    const caller = callerOf(res);
    const q = listQuery.safeParse(req.query);
    if (!q.success) throw badRequest(firstIssue(q.error));
    const { limit, cursor, status, q: text } = q.data;
    const page = await ctx.transaction.listTransactions({
      ownerId: caller.userId,
      limit: limit ?? 0,
      cursor: cursor ?? '',
      status: status ?? '',
      query: text ?? '',
    });
    if (page.nextCursor) {
      res.setHeader('X-Next-Cursor', page.nextCursor);
      // The next page keeps the filter: only the cursor changes.
      const next = new URLSearchParams({
        ...(limit ? { limit: String(limit) } : {}),
        ...(status ? { status } : {}),
        ...(text ? { q: text } : {}),
        cursor: page.nextCursor,
      });
      res.setHeader('Link', `</api/transactions?${next.toString()}>; rel="next"`);
    }
    res.json(page.items.map(summaryJson));
  });

  // Before /:id, so "export.csv" is not taken for an id.
  router.get('/api/transactions/export.csv', auth, async (req, res) => {
    const caller = callerOf(res);
    const stream = ctx.transaction.serverStream(
      transactionV1.TransactionServiceService.exportTransactions,
      { ownerId: caller.userId },
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
      return;
    }
    res.end();
  });

  router.get('/api/transactions/:id', auth, async (req, res) => {
    const caller = callerOf(res);
    const d = await ctx.transaction.getTransaction({ ownerId: caller.userId, id: pathId(req.params.id) });
    res.json({
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
      })),
      events: d.events.map((e) => ({ type: e.type, at: e.at, actor: e.actor, detail: e.detail })),
    });
  });

  router.post('/api/transactions/:id/resend', auth, async (req, res) => {
    const caller = callerOf(res);
    res.json(summaryJson(await ctx.transaction.resendTransaction({ ownerId: caller.userId, id: pathId(req.params.id) })));
  });

  router.post('/api/transactions/:id/cancel', auth, async (req, res) => {
    const caller = callerOf(res);
    res.json(summaryJson(await ctx.transaction.cancelTransaction({ ownerId: caller.userId, id: pathId(req.params.id) })));
  });

  return { router, openapi: transactionsOpenapi() };
}
