import {
  connectBus,
  connectMongo,
  createLogger,
  createS3,
  Metrics,
  pingMongo,
  serveGrpc,
  type Logger,
} from '@signet/kit';
import type { BiometricsConfig } from './config.js';

/** Starts the biometrics service. Its domain RPCs arrive with its issue; until then it serves health and metrics. */
export async function startBiometrics(cfg: BiometricsConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('biometrics', cfg.LOG_LEVEL);
  const metrics = new Metrics('biometrics');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'biometrics');
  const s3 = createS3(cfg);
  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 's3', check: () => s3.listBuckets() },
  ];
  const served = await serveGrpc({ name: 'biometrics', logger, metrics, grpcPort: cfg.GRPC_PORT, opsPort: cfg.OPS_PORT, checks, register: () => {} });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    async stop() {
      await served.stop();
      await bus.nc.drain();
      await conn.close();
    },
  };
}
