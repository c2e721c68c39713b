import { z } from 'zod';
import { transactionV1 } from '@signet/proto';
import { callerOf, isTestMode } from '../../auth.js';
import type { GatewayContext } from '../../context.js';
import { defineRoute, errorResponses, HEADERS } from '../../route.js';
import { recordAudit } from '../admin/audit-record.js';
import { csvRow } from './csv.js';
import type { CallerAuth } from './transaction-actions.routes.js';

const EXPORT_DEADLINE_MS = 10 * 60 * 1000;

/** GET /api/transactions/export.csv: all of the caller's transactions, streamed (part of transactionsRoutes). */
export function exportCsvRoute(ctx: GatewayContext, auth: CallerAuth, tags: string[]) {
  const noStore = { 'Cache-Control': HEADERS.cacheControl };
  return defineRoute({
    method: 'get',
    path: '/api/transactions/export.csv',
    operationId: 'exportTransactions',
    summary: "All of the caller's transactions as CSV",
    description:
      'Columns reference, signer, email, status, created, verified; streamed. Recorded in the account audit log ' +
      '(transactions.exported) before the first byte.',
    tags,
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
        { ownerId: callerOf(res).ownerId, test: isTestMode(res) },
        { deadlineMs: EXPORT_DEADLINE_MS },
      );
      const items = stream[Symbol.asyncIterator]();
      req.on('close', () => stream.cancel());
      // Before the first row: a failure is still an error answer.
      let first = await items.next();
      // Recorded before the first byte: an export the log cannot hold is not sent.
      await recordAudit(ctx, req, res, 'transactions.exported', '', {
        format: 'csv',
        mode: isTestMode(res) ? 'test' : 'live',
      }).catch((err: unknown) => {
        stream.cancel();
        throw err;
      });
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
}
