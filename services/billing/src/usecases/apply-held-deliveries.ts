import { parseDelivery } from '../domain/dodo.js';
import type { DeliveryRepository } from '../store/delivery.repository.js';
import { applyEvent, resolveUser, type HandleWebhookDeps } from './handle-webhook.js';

export type ApplyHeldDeps = Pick<
  HandleWebhookDeps,
  'change' | 'catalog' | 'graceMs' | 'metrics' | 'logger' | 'onAccountChanged' | 'users' | 'accounts'
> & { deliveries: Pick<DeliveryRepository, 'heldFor' | 'finish'> };

/**
 * A user billing has just learnt of: the verified deliveries that named them before that (held as
 * unmatched) are applied now, oldest event first, through the same resolution and account writes
 * as a live delivery. Idempotent: the account writes are (by payment id and subscription state),
 * and a delivery leaves the held set when it is marked processed, so a redelivered user.created
 * finds nothing left, or re-applies harmlessly what a crash interrupted.
 */
export async function applyHeldDeliveries(deps: ApplyHeldDeps, user: { userId: string; email: string }): Promise<number> {
  let applied = 0;
  for (const d of await deps.deliveries.heldFor(user.userId, user.email)) {
    const ev = parseDelivery(Buffer.from(d.body, 'utf8'))?.event;
    if (!ev || ev.kind === 'other') continue;
    const userId = await resolveUser(deps, ev);
    if (!userId) continue;
    const r = await applyEvent(deps, ev, userId);
    await deps.deliveries.finish(d.webhook_id, { result: 'processed', outcome: r.outcome, user_id: userId });
    deps.metrics.webhookEffects.inc({ kind: ev.kind, outcome: r.outcome });
    deps.metrics.webhooks.inc({ result: 'applied_when_user_known' });
    if (r.changed) deps.onAccountChanged();
    deps.logger.info({ webhook_type: ev.type, outcome: r.outcome }, 'held webhook applied: its user is now known');
    applied += 1;
  }
  return applied;
}
