import {
  connectBus,
  connectMongo,
  createLogger,
  createS3,
  ensureBuckets,
  Metrics,
  pingMongo,
  serveGrpc,
  type Logger,
} from '@signet/kit';
import { Redis } from 'ioredis';
import type { TransactionConfig } from './config.js';

/** Starts the transaction service. Its domain RPCs arrive with its issue; until then it serves health and metrics. */
export async function startTransaction(cfg: TransactionConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('transaction', cfg.LOG_LEVEL);
  const metrics = new Metrics('transaction');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'transaction');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const s3 = createS3(cfg);
  await ensureBuckets(s3, [cfg.BUCKET_DOCUMENTS, cfg.BUCKET_REFERENCES], cfg.S3_REGION);
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
    { name: 's3', check: () => s3.listBuckets() },
  ];
  const served = await serveGrpc({ name: 'transaction', logger, metrics, grpcPort: cfg.GRPC_PORT, opsPort: cfg.OPS_PORT, checks, register: () => {} });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    async stop() {
      await served.stop();
      await bus.nc.drain();
      redis.disconnect();
      await conn.close();
    },
  };
}
