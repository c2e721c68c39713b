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
  type Bus,
  type Logger,
  type OutboxRelay,
} from '@signet/kit';
import { ceremonyV1, events, transactionV1 } from '@signet/proto';
import { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { CeremonyConfig } from './config.js';
import { verdictConsumer } from './events/verdict.consumer.js';
import { signingTokensOver } from './grpc/transaction.client.js';
import { createOrphanSweep } from './jobs/orphan.sweep.js';
import { createErasureJob } from './jobs/biometric-erasure.job.js';
import { ERASURE_DURABLE, erasureConsumer } from './events/erasure.consumer.js';
import { TRANSACTION_DELETED_DURABLE, transactionDeletedConsumer } from './events/transaction-deleted.consumer.js';
import { createSessionDeletionStore } from './store/session-deletion.repository.js';
import { ceremonyMetrics, erasureMetrics, type CeremonyMetrics } from './metrics.js';
import { ceremonyHandlers, RAW_RPCS } from './server.js';
import { createCaptureObjects, type CaptureObjects } from './store/capture.objects.js';
import { createCredentialRepository } from './store/credential.repository.js';
import { createForensicRepository } from './store/forensic.repository.js';
import { createLiveBuffer } from './store/live.buffer.js';
import { createSessionRepository, type SessionRepository } from './store/session.repository.js';
import { createWebauthnChallengeRepository } from './store/webauthn-challenge.repository.js';
import type { CeremonyDeps } from './usecases/deps.js';

/**
 * Starts the ceremony service: gRPC, ops, the outbox relay, the biometrics verdict consumer, the
 * sweep of orphan capture objects, and the erasure of capture media with its consumer and daily
 * reconciliation (docs/privacy.md).
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
  const forensic = createForensicRepository(conn);
  const credentials = createCredentialRepository(conn);
  await Promise.all([sessions.init(), forensic.init(), credentials.init()]);
  const transaction = createClient(transactionV1.TransactionServiceClient, cfg.TRANSACTION_ADDR, {
    metrics,
    defaultDeadlineMs: cfg.RPC_DEADLINE_MS,
  });
  const relay = createOutboxRelay(bus, [sessions.model], { metrics, logger });
  if (cfg.CHALLENGE_TEST_SEED) logger.warn('CHALLENGE_TEST_SEED is set: challenges are predictable (tests only)');
  const deps: CeremonyDeps = {
    signingTokens: signingTokensOver(transaction),
    sessions,
    forensic,
    credentials,
    webauthnChallenges: createWebauthnChallengeRepository(redis),
    live: createLiveBuffer(redis),
    captures: createCaptureObjects(s3, cfg.BUCKET_CAPTURES),
    media: {
      ffmpeg: cfg.FFMPEG_PATH,
      ffprobe: cfg.FFPROBE_PATH,
      timeoutMs: cfg.MEDIA_TIMEOUT_MS,
      maxSeconds: cfg.MEDIA_MAX_VIDEO_SECONDS,
    },
    webauthn: { rpId: cfg.WEBAUTHN_RP_ID, rpName: cfg.WEBAUTHN_RP_NAME, origin: cfg.WEBAUTHN_ORIGIN },
    challengeTestSeed: cfg.CHALLENGE_TEST_SEED,
    metrics: ceremonyMetrics(metrics),
    logger,
    onOutbox: relay.kick,
    now: Date.now,
  };
  const jobs = startJobs(cfg, { s3, sessions, captures: deps.captures, relay, metrics, logger });
  const consumers = await startConsumers(bus, conn, { sessions, erasure: jobs.erasure, domain: deps.metrics, metrics, logger });
  const served = await serveGrpc({
    name: 'ceremony',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks: [
      { name: 'mongo', check: () => pingMongo(conn) },
      { name: 'nats', check: async () => bus.nc.flush() },
      { name: 'redis', check: () => redis.ping() },
      { name: 's3', check: () => s3.listBuckets() },
    ],
    register: (server) =>
      addService(server, ceremonyV1.CeremonyServiceService, ceremonyHandlers(deps, metrics), { metrics, logger }, RAW_RPCS),
  });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    metrics,
    orphans: jobs.orphans,
    erasure: jobs.erasure,
    async stop() {
      await served.stop();
      await jobs.orphans.stop();
      await jobs.erasure.stop();
      await consumers.stop();
      relay.stop();
      transaction.close();
      await bus.nc.drain();
      redis.disconnect();
      await conn.close();
    },
  };
}

type JobDeps = {
  s3: ReturnType<typeof createS3>;
  sessions: SessionRepository;
  captures: CaptureObjects;
  relay: OutboxRelay;
  metrics: Metrics;
  logger: Logger;
};

/** The sweep of orphan capture objects and the erasure of capture media (its passes and reconciliation). */
function startJobs(cfg: CeremonyConfig, { s3, sessions, captures, relay, metrics, logger }: JobDeps) {
  const orphans = createOrphanSweep({
    s3,
    bucket: cfg.BUCKET_CAPTURES,
    sessions,
    minAgeMs: cfg.ORPHAN_MIN_AGE_MS,
    metrics,
    logger,
  });
  if (cfg.ORPHAN_SWEEP_INTERVAL_MS > 0) orphans.start(cfg.ORPHAN_SWEEP_INTERVAL_MS);
  const em = erasureMetrics(metrics);
  const erasure = createErasureJob({
    sessions,
    captures,
    s3,
    bucket: cfg.BUCKET_CAPTURES,
    logger,
    now: Date.now,
    onOutbox: relay.kick,
    onErased: (n, reason) => em.erased.inc({ reason }, n),
    onOverdue: (n) => em.overdue.inc(n),
    leaseMs: cfg.ERASURE_LEASE_MS,
    intervalMs: cfg.ERASURE_INTERVAL_MS,
    reconcileIntervalMs: cfg.ERASURE_RECONCILE_INTERVAL_MS,
  });
  return { orphans, erasure };
}

type ConsumerDeps = {
  sessions: SessionRepository;
  erasure: ReturnType<typeof createErasureJob>;
  domain: CeremonyMetrics;
  metrics: Metrics;
  logger: Logger;
};

/** The biometrics verdicts, the erasure requests and the transactions deleted; stopped in the order they started. */
async function startConsumers(bus: Bus, conn: Connection, { sessions, erasure, domain, metrics, logger }: ConsumerDeps) {
  const opts = { metrics, logger };
  const started = [
    await startConsumer(
      bus,
      { durable: 'ceremony-biometrics-verdict', events: [events.verdictIssued] },
      verdictConsumer({ sessions, metrics: domain }),
      opts,
    ),
    await startConsumer(
      bus,
      { durable: ERASURE_DURABLE, events: [events.erasureRequested] },
      erasureConsumer({ sessions, now: Date.now, onRequested: () => void erasure.run() }),
      opts,
    ),
    // The owner deleted a transaction: its sessions' personal data and forensic batches go (issue 21).
    await startConsumer(
      bus,
      { durable: TRANSACTION_DELETED_DURABLE, events: [events.transactionDeleted] },
      transactionDeletedConsumer({ deletion: createSessionDeletionStore(conn), now: Date.now }),
      opts,
    ),
  ];
  return {
    async stop() {
      for (const c of started) await c.stop();
    },
  };
}
