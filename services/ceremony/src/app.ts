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
import type { CeremonyConfig } from './config.js';

/** Starts the ceremony service. Its domain RPCs arrive with its issue; until then it serves health and metrics. */
export async function startCeremony(cfg: CeremonyConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('ceremony', cfg.LOG_LEVEL);
  const metrics = new Metrics('ceremony');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'ceremony');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const s3 = createS3(cfg);
  await ensureBuckets(s3, [cfg.BUCKET_CAPTURES], cfg.S3_REGION);
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
    { name: 's3', check: () => s3.listBuckets() },
  ];
  const served = await serveGrpc({ name: 'ceremony', logger, metrics, grpcPort: cfg.GRPC_PORT, opsPort: cfg.OPS_PORT, checks, register: () => {} });
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
