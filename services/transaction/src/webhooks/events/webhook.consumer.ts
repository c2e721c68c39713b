import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { recordFact, type RecordFactDeps } from '../usecases/record-fact.js';
import { recordBulkFact } from '../usecases/record-bulk-fact.js';
import { factsOf } from './webhook-sources.js';

/**
 * The durable consumer that turns internal events into customer deliveries: maps each through the
 * one table (webhook-sources.ts), records a delivery per subscribed endpoint (idempotent) and kicks
 * the delivery job. Acked only after the records are written, so a crash redelivers the event.
 */
export function webhookConsumer(deps: RecordFactDeps & { kick: () => void }) {
  return async (ev: DeliveredEvent): Promise<void> => {
    let recorded = 0;
    // A bulk job's end is about no transaction: its own delivery (usecases/record-bulk-fact.ts).
    if (ev.subject === events.bulkCompleted.subject)
      recorded += await recordBulkFact(deps, events.bulkCompleted.message.decode(ev.data), ev.eventId);
    for (const fact of factsOf(ev)) recorded += await recordFact(deps, fact);
    if (recorded) deps.kick();
  };
}
