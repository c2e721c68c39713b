import type { ServerWritableStream } from '@grpc/grpc-js';
import { toServiceError, type Logger } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';
import type { ChangeDeps } from '../usecases/apply-change.js';
import { cancelTransaction } from '../usecases/cancel-transaction.js';
import { completeTestTransaction } from '../usecases/complete-test-transaction.js';
import { exportTransactions } from '../usecases/export-transactions.js';
import { getTransaction } from '../usecases/get-transaction.js';
import { listTransactions } from '../usecases/list-transactions.js';
import { resendLinks } from '../usecases/resend-links.js';
import { resolveSigningToken } from '../usecases/resolve-signing-token.js';
import { toDetail, toSigningContext, toSummary } from './mappers.js';

type Deps = ChangeDeps & {
  repo: TransactionRepository;
  tm: TransactionMetrics;
  /** A signing token resolved: outgoing webhooks record the signer's first open (src/webhooks). */
  signerOpened?: (tx: { id: number; reference: string }, signerIndex: number) => Promise<void>;
};

/** The unary RPCs: each maps its request, calls one use case and maps the answer. */
export function transactionHandlers(deps: Deps) {
  return {
    async listTransactions(req: transactionV1.ListTransactionsRequest): Promise<transactionV1.ListTransactionsResponse> {
      const page = await listTransactions(deps, {
        ownerId: req.ownerId,
        limit: req.limit,
        cursor: req.cursor,
        status: req.status,
        query: req.query,
        test: req.test,
      });
      return { items: page.items.map(toSummary), nextCursor: page.nextCursor };
    },

    async getTransaction(req: transactionV1.GetTransactionRequest): Promise<transactionV1.TransactionDetail> {
      const { rec, mails } = await getTransaction(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test });
      return toDetail(rec, mails, deps.retention?.defaultDays ?? 30);
    },

    async resendTransaction(req: transactionV1.TransactionActionRequest): Promise<transactionV1.TransactionSummary> {
      return toSummary(await resendLinks(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test }));
    },

    async cancelTransaction(req: transactionV1.TransactionActionRequest): Promise<transactionV1.TransactionSummary> {
      return toSummary(await cancelTransaction(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test }));
    },

    async completeTestTransaction(req: transactionV1.CompleteTestTransactionRequest): Promise<transactionV1.TransactionSummary> {
      return toSummary(await completeTestTransaction(deps, { ownerId: req.ownerId, id: Number(req.id), outcome: req.outcome }));
    },

    async resolveSigningToken(req: transactionV1.ResolveSigningTokenRequest): Promise<transactionV1.SigningContext> {
      const { rec, signer } = await resolveSigningToken(deps, req.token);
      await deps.signerOpened?.({ id: rec._id, reference: rec.reference }, signer.index);
      return toSigningContext(rec, signer, deps.retention?.defaultDays ?? 30);
    },
  };
}

/** ExportTransactions (server streaming): one summary per message from a database cursor, honouring backpressure. */
export function exportHandler(deps: { repo: TransactionRepository; logger: Logger }) {
  return async (call: ServerWritableStream<transactionV1.ExportTransactionsRequest, transactionV1.TransactionSummary>) => {
    try {
      const cursor = exportTransactions(deps, { ownerId: call.request.ownerId, test: call.request.test });
      let aborted = false;
      call.on('cancelled', () => {
        aborted = true;
      });
      for await (const rec of cursor) {
        if (aborted) break;
        if (!call.write(toSummary(rec as TransactionRecord))) await new Promise((r) => call.once('drain', r));
      }
      await cursor.close();
      call.end();
    } catch (err) {
      deps.logger.error({ err }, 'export failed');
      call.emit('error', toServiceError(err));
    }
  };
}
