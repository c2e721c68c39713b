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
import type { IdentityConfig } from './config.js';

/** Starts the identity service. Its domain RPCs arrive with its issue; until then it serves health and metrics. */
export async function startIdentity(cfg: IdentityConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('identity', cfg.LOG_LEVEL);
  const metrics = new Metrics('identity');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'identity');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
  ];
  const served = await serveGrpc({ name: 'identity', logger, metrics, grpcPort: cfg.GRPC_PORT, opsPort: cfg.OPS_PORT, checks, register: () => {} });
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
