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
  type KeyedLock,
  type Logger,
  type OutboxRelay,
} from '@signet/kit';
import { billingV1, biometricsV1, transactionBulkV1, transactionTemplatesV1, transactionWebhooksV1 } from '@signet/proto';
import { ensureBuckets } from '@signet/kit';
import type { TransactionConfig } from './config.js';
import { createTransactionHandler } from './grpc/create.handler.js';
import { transactionService } from './grpc/creation-decoder.js';
import { exportHandler, transactionHandlers } from './grpc/transaction.handler.js';
import { signingDocumentHandler } from './grpc/document.handler.js';
import { startEventConsumers } from './event-consumers.js';
import { createCompletionMailRepository } from './store/completion-mail.repository.js';
import { transactionMetrics, type TransactionMetrics } from './metrics.js';
import { createObjectStore } from './store/object.store.js';
import { createOrphanSweep } from './jobs/orphan.sweep.js';
import { createErasureRequestRepository } from './store/erasure-request.repository.js';
import { createErasureJob } from './jobs/biometric-erasure.job.js';
import { erasureHandler, signerErasureHandler } from './grpc/erasure.handler.js';
import { createAccountBrandingRepository } from './store/account-branding.repository.js';
import { createTransactionRepository, type TransactionRepository } from './store/transaction.repository.js';
import { startWebhooks } from './webhooks/start-webhooks.js';
import { fieldsHandlers } from './grpc/fields.handler.js';
import { declineHandler } from './grpc/decline.handler.js';
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
  const { repo, templates, brands, completionMails } = await openStores(conn);
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
  const retention = { defaultDays: cfg.BIOMETRIC_RETENTION_DAYS, dayMs: cfg.BIOMETRIC_RETENTION_DAY_SECONDS * 1000 };
  const consumers = await startEventConsumers(bus, {
    ...{ cfg, repo, tm, lock, outbox, clock, retention, mailer, brands, completionMails, metrics, logger },
    ackWaitMs: opts.ackWaitMs,
  });
  const webhooks = await startWebhooks({ cfg, conn, bus, repo, metrics, logger, mailer, clock, ackWaitMs: opts.ackWaitMs });
  const common: Common = { repo, tm, logger, cfg, lock, outbox, clock, retention };
  const { timers, erasure, orphans, erasureDeps } = startJobs({ ...common, templates, objects });

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
    checks: [
      { name: 'mongo', check: () => pingMongo(conn) },
      { name: 'nats', check: async () => bus.nc.flush() },
      { name: 's3', check: async () => void (await objects.client.bucketExists(cfg.BUCKET_DOCUMENTS)) },
    ],
    register: (server) =>
      registerServices(server, {
        ...common,
        ...{ objects, billing, biometrics, templates, metrics },
        ...{ webhooks, bulkSend, erasureDeps, conn, mailer },
      }),
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
      // Stopped in this order: intake first, then the work it feeds, then the connections.
      for (const part of [served, bulkSend, erasure, timers, consumers, webhooks, orphans]) await part.stop();
      outbox.stop();
      billing.close();
      biometrics.close();
      mailer.close();
      await bus.nc.drain();
      await conn.close();
    },
  };
}

type Common = {
  repo: TransactionRepository;
  tm: TransactionMetrics;
  logger: Logger;
  cfg: TransactionConfig;
  lock: KeyedLock<number>;
  outbox: OutboxRelay;
  clock: () => Date;
  retention: { defaultDays: number; dayMs: number };
};
type ServiceDeps = Common & {
  objects: ReturnType<typeof createObjectStore>;
  billing: ReturnType<typeof createClient<billingV1.BillingServiceClient>>;
  biometrics: ReturnType<typeof createClient<biometricsV1.BiometricsServiceClient>>;
  templates: ReturnType<typeof createTemplateRepository>;
  metrics: Metrics;
  webhooks: Awaited<ReturnType<typeof startWebhooks>>;
  bulkSend: Awaited<ReturnType<typeof startBulkSend>>;
  erasureDeps: Pick<Common, 'repo' | 'tm' | 'lock' | 'outbox' | 'clock'> & {
    objects: ReturnType<typeof createObjectStore>;
    leaseMs: number;
  };
  conn: Awaited<ReturnType<typeof connectMongo>>;
  mailer: ReturnType<typeof createMailer>;
};
type GrpcServer = Parameters<Parameters<typeof serveGrpc>[0]['register']>[0];

/** The gRPC services: webhooks, bulk send, templates and the transaction service itself. */
function registerServices(server: GrpcServer, d: ServiceDeps) {
  const {
    repo,
    tm,
    logger,
    cfg,
    clock,
    objects,
    billing,
    biometrics,
    templates,
    metrics,
    webhooks,
    bulkSend,
    erasureDeps,
    conn,
    mailer,
  } = d;
  const common: Common = { repo, tm, logger, cfg, lock: d.lock, outbox: d.outbox, clock, retention: d.retention };
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
}

/** The keys the orphan sweep must keep: a transaction's objects, and a template's document. */
function ownership(repo: TransactionRepository, templates: ReturnType<typeof createTemplateRepository>) {
  return {
    async ownedKeys(field: Parameters<TransactionRepository['ownedKeys']>[0], keys: string[]) {
      const owned = await repo.ownedKeys(field, keys);
      if (field !== 'document_key') return owned;
      for (const k of await templates.ownedKeys(keys.filter((k) => !owned.has(k)))) owned.add(k);
      return owned;
    },
  };
}

/** The jobs: lifecycle timers (expiry, reminders), biometric erasure, and the orphan-object sweep. */
function startJobs(
  d: Common & { templates: ReturnType<typeof createTemplateRepository>; objects: ReturnType<typeof createObjectStore> },
) {
  const { cfg, repo, templates, objects, tm, lock, outbox, clock, retention, logger } = d;
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
  const erasureDeps = { repo, objects, tm, lock, outbox, clock, leaseMs: cfg.ERASURE_LEASE_MS };
  const erasure = createErasureJob({ ...erasureDeps, logger, intervalMs: cfg.ERASURE_INTERVAL_MS });
  const orphans = createOrphanSweep({
    s3: objects.client,
    repo: ownership(repo, templates),
    tm,
    logger,
    buckets: { documents: cfg.BUCKET_DOCUMENTS, references: cfg.BUCKET_REFERENCES },
    minAgeMs: cfg.ORPHAN_MIN_AGE_MS,
    intervalMs: cfg.ORPHAN_SWEEP_INTERVAL_MS,
  });

  return { timers, erasure, orphans, erasureDeps };
}

/** The service's own collections: transactions, templates (issue 33), organisations' branding for the
 *  mails to their signers (identity.branding.changed, issue 34) and the completion mails sent (issue 17). */
async function openStores(conn: Awaited<ReturnType<typeof connectMongo>>) {
  const stores = {
    repo: createTransactionRepository(conn),
    templates: createTemplateRepository(conn),
    brands: createAccountBrandingRepository(conn),
    completionMails: createCompletionMailRepository(conn),
  };
  for (const store of Object.values(stores)) await store.init();
  return stores;
}
