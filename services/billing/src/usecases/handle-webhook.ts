import { invalid } from '@signet/kit';
import { applyPayment, applySubscription, type Applied } from '../domain/account.js';
import { metadataOf, parseDelivery, type WebhookEvent } from '../domain/dodo.js';
import { badWebhookSignature } from '../domain/errors.js';
import type { WebhookHeaders } from '../domain/signature.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { DeliveryRepository } from '../store/delivery.repository.js';
import type { UserDirectory } from '../store/user-directory.repository.js';
import type { BillingDeps } from './deps.js';

export type WebhookResult = 'processed' | 'duplicate' | 'ignored' | 'unmatched';

/** The largest body accepted (the gateway route refuses larger ones too). */
export const MAX_WEBHOOK_BODY = 1024 * 1024;

export type HandleWebhookDeps = Pick<
  BillingDeps,
  'change' | 'verifyWebhook' | 'catalog' | 'graceMs' | 'metrics' | 'logger' | 'onAccountChanged'
> & {
  accounts: Pick<AccountRepository, 'latest'>;
  deliveries: Pick<DeliveryRepository, 'record' | 'find' | 'finish'>;
  users: Pick<UserDirectory, 'exists' | 'findByEmail'>;
};

/** Our metadata's user id when billing knows it (directory or account), else the customer's email in the directory. */
export async function resolveUser(deps: Pick<HandleWebhookDeps, 'users' | 'accounts'>, ev: WebhookEvent): Promise<string | null> {
  const md = metadataOf(ev);
  if (md.userId && (await deps.users.exists(md.userId))) return md.userId;
  if (md.userId && (await deps.accounts.latest(md.userId))) return md.userId;
  if (md.email) return deps.users.findByEmail(md.email);
  return null;
}

export function applyEvent(
  deps: Pick<HandleWebhookDeps, 'change' | 'catalog' | 'graceMs'>,
  ev: WebhookEvent,
  userId: string,
): Promise<Applied> {
  const plan = metadataOf(ev).plan;
  if (ev.kind === 'payment')
    return deps.change(userId, (a) => applyPayment(a, ev.payment, { catalog: deps.catalog, metadataPlan: plan }), ev.type);
  if (ev.kind === 'subscription') {
    return deps.change(
      userId,
      (a, now) =>
        applySubscription(a, ev.type, ev.subscription, {
          at: ev.at ?? now,
          now,
          catalog: deps.catalog,
          metadataPlan: plan,
          graceMs: deps.graceMs,
        }),
      ev.type,
    );
  }
  throw new Error('not an account event');
}

/**
 * HandleWebhook, one payment-provider delivery: verify the signature over the raw bytes (else
 * UNAUTHENTICATED and nothing stored but a counter), refuse a body that is empty or not JSON
 * (INVALID_ARGUMENT, nothing stored but a counter), record it once per webhook-id, find the user,
 * apply the object's state to the account, then mark the delivery done. Any failure after recording
 * throws, the gateway answers 5xx, the provider retries, and the retry finishes the work exactly once.
 */
export async function handleWebhook(
  deps: HandleWebhookDeps,
  input: { body: Buffer; headers: WebhookHeaders },
): Promise<WebhookResult> {
  const { body, headers } = input;
  const results = deps.metrics.webhooks;
  if (body.length > MAX_WEBHOOK_BODY) throw invalid('webhook body is larger than 1 MB');
  if (!deps.verifyWebhook(body, headers)) {
    results.inc({ result: 'unauthenticated' });
    throw badWebhookSignature();
  }
  const delivery = parseDelivery(body);
  if (!delivery) {
    // Nothing to record or to act on, and no retry of the same bytes could change that: 400, not 500.
    results.inc({ result: 'undecodable' });
    throw invalid('webhook body is empty or not JSON');
  }
  const { text, type, event: ev } = delivery;
  const fresh = await deps.deliveries.record({
    webhook_id: headers.id,
    type,
    event_at: ev?.at ?? null,
    received_at: new Date(),
    body: text,
  });
  if (!fresh) {
    const prior = await deps.deliveries.find(headers.id);
    if (prior?.state === 'done') {
      results.inc({ result: 'duplicate' });
      return 'duplicate';
    }
    // Recorded but unfinished: a concurrent copy or a half-way failure. Run it again; the effects are idempotent.
  }
  if (!ev) {
    // Verified JSON but not the documented envelope: acknowledged (a retry would not change the bytes) and kept.
    await deps.deliveries.finish(headers.id, { result: 'ignored', outcome: 'malformed', user_id: null });
    results.inc({ result: 'malformed' });
    deps.logger.warn({ webhook_type: type }, 'verified webhook with an unexpected body recorded');
    return 'ignored';
  }
  if (ev.kind === 'other') {
    await deps.deliveries.finish(headers.id, { result: 'ignored', outcome: null, user_id: null });
    results.inc({ result: 'ignored' });
    return 'ignored';
  }
  const userId = await resolveUser(deps, ev);
  if (!userId) {
    // Billing learns of users from identity's user.created, which may arrive after a payment made
    // right after sign-up: the delivery is held and applied when that user appears
    // (apply-held-deliveries.ts), not dropped.
    const md = metadataOf(ev);
    await deps.deliveries.finish(headers.id, {
      result: 'unmatched',
      outcome: null,
      user_id: null,
      held_for: md.userId || md.email ? { user_id: md.userId, email: md.email } : null,
    });
    results.inc({ result: 'unmatched' });
    deps.logger.info({ webhook_type: ev.type }, 'webhook matched no user; held until the user is known');
    return 'unmatched';
  }
  const applied = await applyEvent(deps, ev, userId);
  await deps.deliveries.finish(headers.id, { result: 'processed', outcome: applied.outcome, user_id: userId });
  deps.metrics.webhookEffects.inc({ kind: ev.kind, outcome: applied.outcome });
  results.inc({ result: fresh ? 'processed' : 'reprocessed' });
  if (applied.changed) deps.onAccountChanged();
  deps.logger.info({ webhook_type: ev.type, outcome: applied.outcome }, 'webhook applied');
  return 'processed';
}
