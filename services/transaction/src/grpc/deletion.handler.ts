import type { transactionV1 } from '@signet/proto';
import { deleteTransaction, type DeletionDeps } from '../usecases/delete-transaction.js';
import { releaseLegalHold, setLegalHold, type LegalHoldDeps } from '../usecases/legal-hold.js';
import { auditByOf } from './audit-context.js';

/** DeleteTransaction, SetLegalHold, ReleaseLegalHold: the owner deletes a finished transaction, or holds it from deletion. */
export function deletionHandlers(deps: DeletionDeps & LegalHoldDeps) {
  return {
    async deleteTransaction(
      req: transactionV1.TransactionActionRequest,
      call?: Parameters<typeof auditByOf>[0],
    ): Promise<transactionV1.DeleteTransactionResponse> {
      const at = await deleteTransaction(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test, by: auditByOf(call) });
      return { deletedAt: at.toISOString() };
    },
    async setLegalHold(req: transactionV1.SetLegalHoldRequest): Promise<transactionV1.LegalHold> {
      const hold = await setLegalHold(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test, reason: req.reason });
      return { since: new Date(hold.since).toISOString(), reason: hold.reason };
    },
    async releaseLegalHold(req: transactionV1.TransactionActionRequest): Promise<transactionV1.ReleaseLegalHoldResponse> {
      return { released: await releaseLegalHold(deps, { ownerId: req.ownerId, id: Number(req.id), test: req.test }) };
    },
  };
}
