import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { requestErasure, type RequestErasureDeps } from '../usecases/request-erasure.js';

export const ERASURE_DURABLE = 'ceremony-erasure-requested';

/** `transaction.erasure.requested`: records the request on the transaction's sessions (usecases/request-erasure.ts). */
export function erasureConsumer(deps: RequestErasureDeps) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.erasureRequested.message.decode(delivered.data);
    await requestErasure(deps, { transactionId: Number(ev.transactionId), reason: ev.reason });
  };
}
