import {
  addService,
  connectBus,
  connectMongo,
  createClient,
  createLogger,
  createKeyedLock,
  createMailer,
  createOutboxRelay,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { billingV1, biometricsV1, events, transactionBulkV1, transactionTemplatesV1, transactionWebhooksV1 } from '@signet/proto';
import { ensureBuckets } from '@signet/kit';
import type { TransactionConfig } from './config.js';
import { createTransactionHandler } from './grpc/create.handler.js';
import { transactionService } from './grpc/creation-decoder.js';
import { exportHandler, transactionHandlers } from './grpc/transaction.handler.js';
import { signingDocumentHandler } from './grpc/document.handler.js';
import { STATE_DURABLE, STATE_EVENTS, stateConsumer } from './events/state.consumer.js';
import {
  LINK_MAIL_ACK_WAIT_MS,
  LINK_MAIL_CONCURRENCY,
  LINK_MAIL_DURABLE,
  linkMailConsumer,
} from './events/link-mail.consumer.js';
import { COMPLETION_MAIL_DURABLE, completionMailConsumer } from './events/completion-mail.consumer.js';
import { createCompletionMailRepository } from './store/completion-mail.repository.js';
import { transactionMetrics } from './metrics.js';
import { createObjectStore } from './store/object.store.js';
import { createOrphanSweep } from './jobs/orphan.sweep.js';
import { createErasureRequestRepository } from './store/erasure-request.repository.js';
import { createErasureJob } from './jobs/biometric-erasure.job.js';
import { erasureHandler, signerErasureHandler } from './grpc/erasure.handler.js';
import { MEDIA_ERASED_DURABLE, mediaErasedConsumer } from './events/media-erased.consumer.js';
import { ACCOUNT_BRANDING_DURABLE, accountBrandingConsumer } from './events/account-branding.consumer.js';
import { ACCOUNT_SETTINGS_DURABLE, accountSettingsConsumer } from './events/account-settings.consumer.js';
import { createAccountBrandingRepository } from './store/account-branding.repository.js';
import { createTransactionRepository } from './store/transaction.repository.js';
import { startWebhooks } from './webhooks/start-webhooks.js';
import { fieldsHandlers } from './grpc/fields.handler.js';
import { declineHandler } from './grpc/decline.handler.js';
import { SENDER_MAIL_DURABLE, SENDER_MAIL_EVENTS, senderMailConsumer } from './events/sender-mail.consumer.js';
import { createLifecycleTimerJob } from './jobs/lifecycle-timers.job.js';
import { createTimerStore } from './store/timers.repository.js';
import { deletionHandlers } from './grpc/deletion.handler.js';
import { createDeletionStore } from './store/deletion.repository.js';
import { startBulkSend } from './jobs/start-bulk-send.js';
import { bulkRowCreator, bulkTemplates } from './jobs/bulk-row-creator.js';
import { createTemplateRepository } from './store/template.repository.js';
import { templateHandlers } from './grpc/template.handler.js';

export type TransactionOptions = { logger?: Logger; ackWaitMs?: number };

/**
 * Starts the transaction service: gRPC (creation stream, reads, actions, token resolution, export),
 * the consumer of ceremony/biometrics/ledger events that moves the state, the consumer that mails
 * signing links, the consumer that logs capture media erasures, the outbox relay, the orphan-object
 * sweep and the biometric erasure job (docs/privacy.md).
 */
export async function startTransaction(cfg: TransactionConfig, opts: TransactionOptions = {}) {
  const logger = opts.logger ?? createLogger('transaction', cfg.LOG_LEVEL);
  const metrics = new Metrics('transaction');
  const tm = transactionMetrics(metrics);
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'transaction');
  const repo = createTransactionRepository(conn);
  await repo.init();
  // Templates (issue 33): their documents live in the documents bucket beside the transactions'.
  const templates = createTemplateRepository(conn);
  await templates.init();
  const objects = createObjectStore(cfg);
  await ensureBuckets(objects.client, [cfg.BUCKET_DOCUMENTS, cfg.BUCKET_REFERENCES], cfg.S3_REGION);
  const mailer = createMailer(cfg.SMTP_URL, cfg.MAIL_FROM);
  const billing = createClient(billingV1.BillingServiceClient, cfg.BILLING_ADDR, { metrics });
  // Counts the faces of each reference photo at creation (issue 18).
  const biometrics = createClient(biometricsV1.BiometricsServiceClient, cfg.BIOMETRICS_ADDR, { metrics });

  // Every write to a transaction holds its lock; the relay pops under the same lock (FerretDB, see README).
  const lock = createKeyedLock<number>();
  const outbox = createOutboxRelay(bus, [repo.model], { metrics, logger, lock, pollMs: 2000 });
  const clock = () => new Date();
  // Organisations' branding for the mails to their signers (identity.branding.changed, issue 34 item 4).
  const brands = createAccountBrandingRepository(conn);
  await brands.init();
  const retention = { defaultDays: cfg.BIOMETRIC_RETENTION_DAYS, dayMs: cfg.BIOMETRIC_RETENTION_DAY_SECONDS * 1000 };
  const consumer = await startConsumer(
    bus,
    { durable: STATE_DURABLE, events: STATE_EVENTS, ackWaitMs: opts.ackWaitMs },
    stateConsumer({ repo, tm, lock, outbox, clock, retention }),
    { metrics, logger },
  );
  const mailConsumer = await startConsumer(
    bus,
    {
      durable: LINK_MAIL_DURABLE,
      events: [events.linksRequested],
      ackWaitMs: opts.ackWaitMs ?? LINK_MAIL_ACK_WAIT_MS,
      concurrency: LINK_MAIL_CONCURRENCY,
    },
    linkMailConsumer({ repo, mailer, tm, logger, cfg, brands }),
    { metrics, logger },
  );
  // The signed PDF is sealed: every signer and the sender get a download link (issue 17).
  const completionMails = createCompletionMailRepository(conn);
  await completionMails.init();
  const completionConsumer = await startConsumer(
    bus,
    { durable: COMPLETION_MAIL_DURABLE, events: [events.pdfSealed], ackWaitMs: opts.ackWaitMs ?? LINK_MAIL_ACK_WAIT_MS },
    completionMailConsumer({ repo, sent: completionMails, mailer, tm, logger, cfg, clock, brands }),
    { metrics, logger },
  );
  const erasedConsumer = await startConsumer(
    bus,
    { durable: MEDIA_ERASED_DURABLE, events: [events.mediaErased], ackWaitMs: opts.ackWaitMs },
    mediaErasedConsumer({ repo, lock, clock }),
    { metrics, logger },
  );
  const settingsConsumer = await startConsumer(
    bus,
    { durable: ACCOUNT_SETTINGS_DURABLE, events: [events.settingsChanged], ackWaitMs: opts.ackWaitMs },
    accountSettingsConsumer({ repo }),
    { metrics, logger },
  );
  const brandingConsumer = await startConsumer(
    bus,
    { durable: ACCOUNT_BRANDING_DURABLE, events: [events.brandingChanged], ackWaitMs: opts.ackWaitMs },
    accountBrandingConsumer({ brands }),
    { metrics, logger },
  );
  const senderConsumer = await startConsumer(
    bus,
    { durable: SENDER_MAIL_DURABLE, events: SENDER_MAIL_EVENTS, ackWaitMs: opts.ackWaitMs ?? LINK_MAIL_ACK_WAIT_MS },
    senderMailConsumer({ repo, mailer, tm, logger, cfg }),
    { metrics, logger },
  );
  const timers = createLifecycleTimerJob({
    repo,
    timers: createTimerStore(repo.model),
    tm,
    lock,
    outbox,
    clock,
    retention,
    logger,
    leaseMs: cfg.TIMER_LEASE_MS,
    intervalMs: cfg.TIMER_INTERVAL_MS,
  });
  const webhooks = await startWebhooks({ cfg, conn, bus, repo, metrics, logger, mailer, clock, ackWaitMs: opts.ackWaitMs });
  const erasureDeps = { repo, objects, tm, lock, outbox, clock, leaseMs: cfg.ERASURE_LEASE_MS };
  const erasure = createErasureJob({ ...erasureDeps, logger, intervalMs: cfg.ERASURE_INTERVAL_MS });
  const orphans = createOrphanSweep({
    s3: objects.client,
    // A template's document is owned too: the sweep must not take it.
    repo: {
      async ownedKeys(field, keys) {
        const owned = await repo.ownedKeys(field, keys);
        if (field !== 'document_key') return owned;
        for (const k of await templates.ownedKeys(keys.filter((k) => !owned.has(k)))) owned.add(k);
        return owned;
      },
    },
    tm,
    logger,
    buckets: { documents: cfg.BUCKET_DOCUMENTS, references: cfg.BUCKET_REFERENCES },
    minAgeMs: cfg.ORPHAN_MIN_AGE_MS,
    intervalMs: cfg.ORPHAN_SWEEP_INTERVAL_MS,
  });

  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 's3', check: async () => void (await objects.client.bucketExists(cfg.BUCKET_DOCUMENTS)) },
  ];
  const common = { repo, tm, logger, cfg, lock, outbox, clock, retention };
  // Bulk send (issue 33): each row is a transaction from the template, made as CreateFromTemplate makes one.
  const bulkSend = await startBulkSend({
    ...{ cfg, conn, bus, repo, objects, biometrics, metrics, tm, logger, clock },
    templates: bulkTemplates(templates),
    createRow: bulkRowCreator({ ...common, objects, billing, biometrics, templates }),
  });
  const served = await serveGrpc({
    name: 'transaction',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks,
    register: (server) => {
      addService(server, transactionWebhooksV1.WebhookServiceService, webhooks.handlers, { metrics, logger });
      addService(server, transactionBulkV1.BulkServiceService, bulkSend.handlers, { metrics, logger });
      addService(
        server,
        transactionTemplatesV1.TemplateServiceService,
        templateHandlers({ ...common, objects, billing, biometrics, templates }),
        { metrics, logger },
        ['createTemplate', 'createFromTemplate', 'getTemplateDocument'],
      );
      addService(
        server,
        transactionService,
        {
          ...transactionHandlers({ ...common, signerOpened: webhooks.signerOpened }),
          createTransaction: createTransactionHandler({ ...common, objects, billing, biometrics, metrics }),
          exportTransactions: exportHandler(common),
          eraseBiometrics: erasureHandler(erasureDeps),
          // The owner deletes a finished transaction, or holds it from any deletion (issue 21).
          ...deletionHandlers({ ...erasureDeps, logger, tokens: createDeletionStore(conn) }),
          declineSigning: declineHandler(common),
          ...fieldsHandlers(common),
          requestSignerErasure: signerErasureHandler({
            requests: createErasureRequestRepository(conn),
            mailer,
            tm,
            logger,
            cfg,
            noticeMs: cfg.ERASURE_NOTICE_SECONDS * 1000,
            clock,
          }),
          getSigningDocument: signingDocumentHandler({
            repo,
            s3: objects.client,
            bucket: cfg.BUCKET_DOCUMENTS,
            logger,
          }),
        },
        { metrics, logger },
        ['createTransaction', 'exportTransactions', 'getSigningDocument'],
      );
    },
  });

  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    metrics,
    repo,
    objects,
    outbox,
    orphans,
    erasure,
    timers,
    webhooks,
    bulkSend,
    async stop() {
      await served.stop();
      await bulkSend.stop();
      await erasure.stop();
      await timers.stop();
      await senderConsumer.stop();
      await brandingConsumer.stop();
      await webhooks.stop();
      await consumer.stop();
      await mailConsumer.stop();
      await completionConsumer.stop();
      await erasedConsumer.stop();
      await settingsConsumer.stop();
      await orphans.stop();
      outbox.stop();
      billing.close();
      biometrics.close();
      mailer.close();
      await bus.nc.drain();
      await conn.close();
    },
  };
}
