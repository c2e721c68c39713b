import express, { type Express } from 'express';
import { Redis } from 'ioredis';
import {
  closeServer,
  createClient,
  createLogger,
  createOpsApp,
  grpcHealthCheck,
  listen,
  mountOps,
  Metrics,
  requestInstrumentation,
  type Logger,
  type PromiseClient,
  type ReadinessCheck,
} from '@signet/kit';
import { ledgerV1 } from '@signet/proto';
import type { GatewayConfig } from './config.js';
import { errorBoundary, sendError } from './http/errors.js';
import { verifyRoutes } from './http/routes/verify.routes.js';

export type GatewayDeps = {
  logger: Logger;
  metrics: Metrics;
  ledger: PromiseClient<ledgerV1.LedgerServiceClient>;
  checks: ReadinessCheck[];
  trustProxy: string;
};

/** The public HTTP surface, wired to its dependencies; no side effects. */
export function buildApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy.split(',').map((s) => s.trim()).filter(Boolean));
  app.use(requestInstrumentation(deps.metrics));
  mountOps(app, deps.metrics, deps.checks, { metrics: false });
  app.use(verifyRoutes(deps.ledger));
  app.use('/api', (_req, res) => sendError(res, 404, 'no such endpoint'));
  app.use(errorBoundary(deps.logger));
  return app;
}

export async function startGateway(cfg: GatewayConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('gateway', cfg.LOG_LEVEL);
  const metrics = new Metrics('gateway');
  const clientDeps = { metrics, defaultDeadlineMs: cfg.RPC_DEADLINE_MS };
  const ledger = createClient(ledgerV1.LedgerServiceClient, cfg.LEDGER_ADDR, clientDeps);
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const upstream = { ledger: grpcHealthCheck(cfg.LEDGER_ADDR) };
  const checks: ReadinessCheck[] = [
    { name: 'redis', check: () => redis.ping() },
    ...Object.entries(upstream).map(([name, h]) => ({ name, check: h.check })),
  ];
  const app = buildApp({ logger, metrics, ledger, checks, trustProxy: cfg.TRUSTED_PROXIES });
  const http = await listen(app, cfg.HTTP_PORT);
  const ops = await listen(createOpsApp(metrics, checks), cfg.OPS_PORT);
  logger.info({ http_port: http.port, ops_port: ops.port }, 'gateway listening');
  return {
    httpPort: http.port,
    opsPort: ops.port,
    metrics,
    async stop() {
      await closeServer(http.server);
      await closeServer(ops.server);
      ledger.close();
      for (const h of Object.values(upstream)) h.close();
      redis.disconnect();
    },
  };
}
