import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { deleteSessionData, type DeleteSessionDataDeps } from '../usecases/delete-session-data.js';

export const TRANSACTION_DELETED_DURABLE = 'ceremony-transaction-deleted';

/** `transaction.deleted`: the sessions' personal data and forensic batches go (usecases/delete-session-data.ts). */
export function transactionDeletedConsumer(deps: DeleteSessionDataDeps) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.transactionDeleted.message.decode(delivered.data);
    await deleteSessionData(deps, Number(ev.transactionId));
  };
}
