import type { eventsV1 } from '@signet/proto';
import { deliveryIdOf, webhookIdOf } from '../domain/webhook-event.js';
import { modeOf, modeOfTransaction } from '../domain/mode.js';
import type { WebhookRepository } from '../store/webhook.repository.js';

/**
 * A bulk job ended (signet.transaction.bulk.completed): one `bulk.completed` delivery per endpoint of
 * the job's owner and mode that subscribes, with the job's counts (no names, e-mails or values; GET
 * /api/bulk/{id} has each row). Idempotent as recordFact is: the delivery id comes from the event id
 * and the endpoint. Returns how many endpoints it goes to.
 */
export async function recordBulkFact(
  deps: { store: Pick<WebhookRepository, 'subscribers' | 'recordDelivery'>; clock: () => Date },
  e: eventsV1.BulkJobCompleted,
  eventId: string,
): Promise<number> {
  const occurredAt = e.occurredAt || new Date().toISOString();
  const mode = modeOfTransaction({ test: e.test });
  const targets = (await deps.store.subscribers(e.ownerId, 'bulk.completed', new Date(occurredAt))).filter(
    (ep) => modeOf(ep) === mode,
  );
  if (!targets.length) return 0;
  const payload = JSON.stringify({
    type: 'bulk.completed',
    timestamp: occurredAt,
    data: {
      bulk_job: {
        id: e.jobId,
        template_id: e.templateId,
        test: e.test,
        rows: e.rows,
        created: e.created,
        failed: e.failed,
        not_sent: e.notSent,
      },
    },
  });
  const now = deps.clock();
  for (const ep of targets) {
    await deps.store.recordDelivery({
      _id: deliveryIdOf(eventId, ep._id),
      endpoint_id: ep._id,
      owner_id: e.ownerId,
      webhook_id: webhookIdOf(eventId),
      event_type: 'bulk.completed',
      transaction_id: 0,
      payload,
      status: 'pending',
      round_attempts: 0,
      next_attempt_at: now,
      lease: null,
      lease_until: null,
      attempts: [],
      created_at: now,
    });
  }
  return targets.length;
}
