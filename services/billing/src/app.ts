import {
  connectBus,
  connectMongo,
  createLogger,
  Metrics,
  pingMongo,
  serveGrpc,
  type Logger,
} from '@signet/kit';
import { Redis } from 'ioredis';
import type { BillingConfig } from './config.js';

/** Starts the billing service. Its domain RPCs arrive with its issue; until then it serves health and metrics. */
export async function startBilling(cfg: BillingConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('billing', cfg.LOG_LEVEL);
  const metrics = new Metrics('billing');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'billing');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
  ];
  const served = await serveGrpc({ name: 'billing', logger, metrics, grpcPort: cfg.GRPC_PORT, opsPort: cfg.OPS_PORT, checks, register: () => {} });
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
