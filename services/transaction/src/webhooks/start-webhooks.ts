import { createOutboxRelay, startConsumer, type Bus, type Logger, type Mailer, type Metrics } from '@signet/kit';
import type { Connection } from 'mongoose';
import type { TransactionConfig } from '../config.js';
import { webhookMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';
import { addressPolicy } from './domain/address-policy.js';
import { webhookConsumer } from './events/webhook.consumer.js';
import { WEBHOOK_DURABLE, WEBHOOK_EVENTS } from './events/webhook-sources.js';
import { webhookHandlers } from './grpc/webhook.handler.js';
import { createDeliveryJob } from './jobs/delivery.job.js';
import { createWebhookRepository } from './store/webhook.repository.js';
import { createSignerOpenRepository } from './store/signer-open.repository.js';
import { createSecretSeal } from './domain/secret-seal.js';

/**
 * Outgoing customer webhooks inside the transaction process: the endpoint store, the durable
 * consumer that records deliveries from internal events, the leased delivery job and the
 * WebhookService handlers (app.ts registers them on its gRPC server).
 */
export async function startWebhooks(d: {
  cfg: TransactionConfig;
  conn: Connection;
  bus: Bus;
  repo: Pick<TransactionRepository, 'findById'>;
  metrics: Metrics;
  logger: Logger;
  mailer: Pick<Mailer, 'send'>;
  clock: () => Date;
  ackWaitMs?: number;
}) {
  const store = createWebhookRepository(d.conn);
  await store.init();
  const seal = createSecretSeal(d.cfg.WEBHOOK_ENDPOINT_KEY);
  const sealed = await store.sealPlaintextSecrets(seal.seal);
  if (sealed) d.logger.info({ sealed }, 'webhook endpoint secrets stored in plaintext are now sealed');
  // Endpoints stored before the cap was exact (and before modes: live) get their place among the owner's.
  const placed = await store.placeUnslotted(d.cfg.WEBHOOK_MAX_ENDPOINTS, d.clock());
  if (placed) d.logger.info({ placed }, 'webhook endpoints stored before places existed are now placed');
  const opens = createSignerOpenRepository(d.conn);
  await opens.init();
  // The opens' outbox has a relay of its own (written once per signer, no lock needed); the main
  // relay samples the consumers' lag already.
  const opensOutbox = createOutboxRelay(d.bus, [opens.model], { metrics: d.metrics, logger: d.logger, pollMs: 2000, lagOf: [] });
  const wm = webhookMetrics(d.metrics);
  const policy = addressPolicy(d.cfg.WEBHOOK_ALLOW_NETWORKS);
  const job = createDeliveryJob({
    store,
    sender: { policy, timeoutMs: d.cfg.WEBHOOK_ATTEMPT_TIMEOUT_MS },
    schedule: {
      baseMs: d.cfg.WEBHOOK_RETRY_BASE_MS,
      capMs: d.cfg.WEBHOOK_RETRY_CAP_MS,
      maxAttempts: d.cfg.WEBHOOK_MAX_ATTEMPTS,
      jitter: 0.2,
    },
    leaseMs: d.cfg.WEBHOOK_LEASE_MS,
    disableAfterMs: d.cfg.WEBHOOK_DISABLE_AFTER_MS,
    clock: d.clock,
    seal,
    wm,
    mailer: d.mailer,
    logger: d.logger,
    intervalMs: d.cfg.WEBHOOK_POLL_MS,
    concurrency: d.cfg.WEBHOOK_CONCURRENCY,
    endpointConcurrency: d.cfg.WEBHOOK_ENDPOINT_CONCURRENCY,
    ownerConcurrency: d.cfg.WEBHOOK_OWNER_CONCURRENCY,
    logRetentionMs: d.cfg.WEBHOOK_LOG_RETENTION_DAYS * 86_400_000,
  });
  const consumer = await startConsumer(
    d.bus,
    { durable: WEBHOOK_DURABLE, events: WEBHOOK_EVENTS, ackWaitMs: d.ackWaitMs },
    webhookConsumer({ store, repo: d.repo, clock: d.clock, kick: job.kick }),
    { metrics: d.metrics, logger: d.logger },
  );
  return {
    store,
    job,
    handlers: webhookHandlers({
      store,
      policy,
      clock: d.clock,
      kick: job.kick,
      seal,
      maxEndpoints: d.cfg.WEBHOOK_MAX_ENDPOINTS,
    }),
    /**
     * Called when a signing token resolved (the ceremony asks on every signer request): the first
     * time per signer it records signet.transaction.signer.opened. Never fails the resolution.
     */
    async signerOpened(tx: { id: number; reference: string }, signerIndex: number): Promise<void> {
      try {
        const id = await opens.recordFirstOpen(tx, signerIndex, d.clock());
        if (id) await opensOutbox.flush(id);
      } catch (err) {
        d.logger.warn({ err, transaction_id: tx.id }, 'could not record a signer opening their link');
      }
    },
    async stop() {
      await consumer.stop();
      await job.stop();
      opensOutbox.stop();
    },
  };
}
