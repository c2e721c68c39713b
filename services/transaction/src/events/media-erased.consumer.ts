import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { recordMediaErased, type RecordMediaErasedDeps } from '../usecases/record-media-erased.js';

export const MEDIA_ERASED_DURABLE = 'transaction-media-erased';

/** The ceremony's media erasures, written to the transaction's event log (idempotent). */
export function mediaErasedConsumer(deps: RecordMediaErasedDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    const e = events.mediaErased.message.decode(ev.data);
    await recordMediaErased(deps, {
      transactionId: Number(e.transactionId),
      signerIndex: e.signerIndex,
      reason: e.reason,
      keyDigests: e.keySha256,
      at: e.occurredAt ? new Date(e.occurredAt) : undefined,
    });
  };
}
