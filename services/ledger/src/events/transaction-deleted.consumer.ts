import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { deleteSignedPdfs, type DeleteSignedPdfsDeps } from '../usecases/delete-signed-pdfs.js';

export const TRANSACTION_DELETED_DURABLE = 'ledger-transaction-deleted';

/**
 * `transaction.deleted`: the ledger deletes the transaction's stored PDFs (usecases/delete-signed-pdfs.ts),
 * in the live records and in the test log's (test mode; a reference is in one of them, the other has nothing).
 */
export function transactionDeletedConsumer(deps: DeleteSignedPdfsDeps, testDeps?: DeleteSignedPdfsDeps | null) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.transactionDeleted.message.decode(delivered.data);
    await deleteSignedPdfs(deps, ev.reference);
    if (testDeps) await deleteSignedPdfs(testDeps, ev.reference);
  };
}
