import {
  addService,
  connectBus,
  connectMongo,
  createLogger,
  createOutboxRelay,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { billingV1, events } from '@signet/proto';
import { Redis } from 'ioredis';
import type { BillingConfig } from './config.js';
import { createVerifier } from './domain/signature.js';
import { userCreatedConsumer } from './events/user-created.consumer.js';
import { startDowngradeSweep } from './jobs/downgrade.sweep.js';
import { billingMetrics } from './metrics.js';
import { billingHandlers } from './server.js';
import { createAccountRepository } from './store/account.repository.js';
import { createConsumptionRepository } from './store/consumption.repository.js';
import { createDeliveryRepository } from './store/delivery.repository.js';
import { createUserDirectory } from './store/user-directory.repository.js';
import { accountChanger } from './usecases/change-account.js';
import type { BillingDeps } from './usecases/deps.js';

export type BillingOptions = { logger?: Logger };

/**
 * Starts billing: gRPC (ConsumeSignature, RefundSignature, GetAccount, HandleWebhook), ops, the
 * identity user.created consumer, the outbox relay of account changes and the downgrade sweep.
 */
export async function startBilling(cfg: BillingConfig, opts: BillingOptions = {}) {
  const logger = opts.logger ?? createLogger('billing', cfg.LOG_LEVEL);
  const metrics = new Metrics('billing');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'billing');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();

  const accounts = createAccountRepository(conn);
  const consumptions = createConsumptionRepository(conn);
  const deliveries = createDeliveryRepository(conn);
  const users = createUserDirectory(conn);
  for (const r of [accounts, consumptions, deliveries, users]) await r.init();

  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
  ];
  const relay = createOutboxRelay(bus, [accounts.model], { metrics, logger });
  const change = accountChanger(accounts, consumptions);
  const deps: BillingDeps = {
    accounts,
    consumptions,
    deliveries,
    users,
    change,
    verifyWebhook: createVerifier(cfg.WEBHOOK_SECRET),
    catalog: cfg.PRODUCT_CATALOG,
    graceMs: cfg.GRACE_PERIOD_DAYS * 86_400_000,
    metrics: billingMetrics(metrics),
    logger,
    onAccountChanged: relay.kick,
  };
  const consumer = await startConsumer(
    bus,
    { durable: 'billing-identity-user-created', events: [events.userCreated] },
    userCreatedConsumer(deps),
    { metrics, logger },
  );
  const sweep = startDowngradeSweep({ ...deps, logger, redis, intervalMs: cfg.SWEEP_INTERVAL_MS });

  const served = await serveGrpc({
    name: 'billing',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks,
    register: (server) => addService(server, billingV1.BillingServiceService, billingHandlers(deps), { metrics, logger }),
  });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    metrics,
    repos: { accounts, consumptions, deliveries, users },
    change,
    sweep,
    async stop() {
      await served.stop();
      await sweep.stop();
      await consumer.stop();
      relay.stop();
      await bus.nc.drain();
      redis.disconnect();
      await conn.close();
    },
  };
}
