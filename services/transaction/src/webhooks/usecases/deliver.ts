import { randomUUID } from 'node:crypto';
import type { Logger, Mailer } from '@signet/kit';
import { retryDelayMs, type RetrySchedule } from '../domain/backoff.js';
import { signingSecrets, type SecretSeal } from '../domain/secret-seal.js';
import { sendWebhook, type AttemptOutcome, type SendRequest, type SenderDeps } from '../delivery/http-sender.js';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, WebhookRepository } from '../store/webhook.repository.js';
import { failingTooLong } from '../domain/failing.js';
import type { WebhookMetrics } from '../../metrics.js';
import { endpointDisabledMail } from '../mail/endpoint-disabled.mail.js';

export type DeliverDeps = {
  store: WebhookRepository;
  sender: SenderDeps;
  schedule: RetrySchedule;
  leaseMs: number;
  clock: () => Date;
  wm: WebhookMetrics;
  mailer: Pick<Mailer, 'send'>;
  logger: Logger;
  /** Opens the endpoints' sealed secrets to sign (WEBHOOK_ENDPOINT_KEY). */
  seal: SecretSeal;
  /** An endpoint whose every attempt has failed for this long is disabled and its owner mailed (WEBHOOK_DISABLE_AFTER_MS). */
  disableAfterMs: number;
  /** Aborted when the process stops: an attempt in flight is dropped unrecorded, its claim expires. */
  signal?: AbortSignal;
  send?: (req: SendRequest, deps: SenderDeps) => Promise<AttemptOutcome>;
  /** Called when a delivery was claimed, before its attempt (the job starts its other workers then). */
  onClaimed?: () => void;
};

/**
 * Claims the next due delivery and makes one attempt: delivered on a 2xx, else due again after the
 * backoff, or failed when the schedule is spent. An endpoint that has failed every attempt for
 * `disableAfterMs` is disabled and its owner mailed. Returns false when nothing was due.
 */
export async function deliverNext(deps: DeliverDeps): Promise<boolean> {
  const claimed = await claimNext(deps);
  if (!claimed) return false;
  deps.onClaimed?.();
  await attemptClaimed(deps, claimed.delivery, claimed.lease);
  return true;
}

/** A claimed delivery and the lease it is held under. */
export type Claimed = { delivery: DeliveryRecord; lease: string };

/**
 * Claims the oldest due delivery whose endpoint and owner are not in `skip` (those already at their
 * share of attempts in flight: fair delivery), for the lease period; null when none is due.
 */
export async function claimNext(
  deps: Pick<DeliverDeps, 'store' | 'clock' | 'leaseMs'>,
  skip: { endpoints?: string[]; owners?: string[] } = {},
): Promise<Claimed | null> {
  const now = deps.clock();
  const lease = randomUUID();
  const d = await deps.store.claimDue(lease, now, new Date(now.getTime() + deps.leaseMs), skip);
  return d ? { delivery: d, lease } : null;
}

/** One attempt of a claimed delivery and what follows it (delivered, retry later, or failed for good). */
export async function attemptClaimed(deps: DeliverDeps, d: DeliveryRecord, lease: string): Promise<void> {
  const end = async (attempt: AttemptRecord | null, status: 'delivered' | 'failed' | 'cancelled', rounds: number) => {
    const done = await deps.store.completeAttempt(d._id, lease, attempt, {
      status,
      next_attempt_at: null,
      round_attempts: rounds,
    });
    if (done) deps.wm.outcomes.inc({ result: status });
    return done;
  };
  const ep = await deps.store.endpointForDelivery(d.endpoint_id);
  if (!ep || !ep.enabled) {
    await end(null, 'cancelled', d.round_attempts);
    return;
  }
  const at = deps.clock();
  const send = deps.send ?? sendWebhook;
  const o = await send(
    {
      url: ep.url,
      secrets: signingSecrets(ep, at, deps.seal),
      webhookId: d.webhook_id,
      payload: d.payload,
      at,
      signal: deps.signal,
    },
    deps.sender,
  );
  deps.wm.deliveries.inc({ result: o.result });
  deps.wm.latency.observe({ result: o.result }, o.latencyMs / 1000);
  const round = d.round_attempts + 1;
  const record = { at, status: o.status, latency_ms: o.latencyMs, result: o.result, response_snippet: o.snippet };
  if (o.result === 'success') {
    await end(record, 'delivered', round);
    if (ep.failing_since) await deps.store.setFailingSince(ep._id, null);
    return;
  }
  // The endpoint's failure streak starts at its first failed attempt since its last success.
  const since = ep.failing_since ? new Date(ep.failing_since) : at;
  if (!ep.failing_since) await deps.store.setFailingSince(ep._id, at);
  const wait = retryDelayMs(deps.schedule, round);
  if (wait !== null) {
    const next = new Date(deps.clock().getTime() + wait);
    await deps.store.completeAttempt(d._id, lease, record, { status: 'pending', next_attempt_at: next, round_attempts: round });
    deps.logger.info(
      { delivery_id: d._id, endpoint_id: ep._id, result: o.result, status: o.status, retry_in_ms: wait },
      'webhook attempt failed; will retry',
    );
  } else {
    if (!(await end(record, 'failed', round))) return;
    deps.logger.warn({ delivery_id: d._id, endpoint_id: ep._id, attempts: round }, 'webhook delivery failed for good');
  }
  if (failingTooLong(since, deps.clock(), deps.disableAfterMs)) await disableEndpoint(deps, ep, since, o);
}

/** Disables an endpoint failing for too long and mails its owner once (the dashboard shows it disabled, "failing"). */
async function disableEndpoint(deps: DeliverDeps, ep: EndpointRecord, since: Date, o: AttemptOutcome): Promise<void> {
  if (!(await deps.store.disableFailing(ep._id, deps.clock()))) return;
  deps.wm.disabledEndpoints.inc({});
  deps.wm.disabledForFailing.inc({});
  deps.logger.warn({ endpoint_id: ep._id, failing_since: since.toISOString() }, 'webhook endpoint failing too long; disabled');
  if (!ep.owner_email) return;
  try {
    await deps.mailer.send(endpointDisabledMail({ to: ep.owner_email, url: ep.url, endpointId: ep._id, since, lastResult: o }));
  } catch (err) {
    deps.logger.warn({ err, endpoint_id: ep._id }, 'the disabled-endpoint mail could not be sent');
  }
}
