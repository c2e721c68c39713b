import type { DeliveredEvent } from '@signet/kit';
import { recordFact, type RecordFactDeps } from '../usecases/record-fact.js';
import { factsOf } from './webhook-sources.js';

/**
 * The durable consumer that turns internal events into customer deliveries: maps each through the
 * one table (webhook-sources.ts), records a delivery per subscribed endpoint (idempotent) and kicks
 * the delivery job. Acked only after the records are written, so a crash redelivers the event.
 */
export function webhookConsumer(deps: RecordFactDeps & { kick: () => void }) {
  return async (ev: DeliveredEvent): Promise<void> => {
    let recorded = 0;
    for (const fact of factsOf(ev)) recorded += await recordFact(deps, fact);
    if (recorded) deps.kick();
  };
}
