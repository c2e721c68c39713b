import {
  addService,
  connectBus,
  connectMongo,
  createClient,
  createLogger,
  createOutboxRelay,
  createS3,
  ensureBuckets,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { ceremonyV1, transactionV1 } from '@signet/proto';
import { Redis } from 'ioredis';
import type { CeremonyConfig } from './config.js';
import { VERDICT_SUBJECT, verdictConsumer } from './events/verdict.consumer.js';
import { captureHandler } from './grpc/capture.handler.js';
import { ceremonyHandlers } from './grpc/ceremony.handler.js';
import { ceremonyCounters, type CeremonyDeps } from './grpc/context.js';
import { createSessionRepository } from './store/session.repository.js';
import { createLiveBuffer } from './store/live.buffer.js';
import { createOrphanSweep } from './sweep/orphan.sweep.js';

/**
 * Starts the ceremony service: gRPC, ops, the outbox relay, the biometrics verdict consumer and the
 * sweep of orphan capture objects.
 */
export async function startCeremony(cfg: CeremonyConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('ceremony', cfg.LOG_LEVEL);
  const metrics = new Metrics('ceremony');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'ceremony');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const s3 = createS3(cfg);
  await ensureBuckets(s3, [cfg.BUCKET_CAPTURES], cfg.S3_REGION);
  const sessions = createSessionRepository(conn);
  await sessions.init();
  const transaction = createClient(transactionV1.TransactionServiceClient, cfg.TRANSACTION_ADDR, {
    metrics,
    defaultDeadlineMs: cfg.RPC_DEADLINE_MS,
  });
  const relay = createOutboxRelay(bus, [sessions.model], { metrics, logger });
  const counters = ceremonyCounters(metrics);
  if (cfg.CHALLENGE_TEST_SEED) logger.warn('CHALLENGE_TEST_SEED is set: challenges are predictable (tests only)');
  const live = createLiveBuffer(redis);
  const deps: CeremonyDeps = { cfg, logger, metrics, sessions, transaction, s3, redis, relay, counters, live };
  const consumer = await startConsumer(
    bus,
    { durable: 'ceremony-biometrics-verdict', subjects: [VERDICT_SUBJECT] },
    verdictConsumer({ sessions, logger, counters }),
    { metrics, logger },
  );
  const orphans = createOrphanSweep({
    s3,
    bucket: cfg.BUCKET_CAPTURES,
    sessions,
    minAgeMs: cfg.ORPHAN_MIN_AGE_MS,
    metrics,
    logger,
  });
  if (cfg.ORPHAN_SWEEP_INTERVAL_MS > 0) orphans.start(cfg.ORPHAN_SWEEP_INTERVAL_MS);
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
    { name: 's3', check: () => s3.listBuckets() },
  ];
  const served = await serveGrpc({
    name: 'ceremony',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks,
    register: (server) =>
      addService(
        server,
        ceremonyV1.CeremonyServiceService,
        { ...ceremonyHandlers(deps), submitCapture: captureHandler(deps) },
        { metrics, logger },
        ['submitCapture'],
      ),
  });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    metrics,
    orphans,
    async stop() {
      await served.stop();
      await orphans.stop();
      await consumer.stop();
      relay.stop();
      transaction.close();
      await bus.nc.drain();
      redis.disconnect();
      await conn.close();
    },
  };
}
