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
  type ReadinessCheck,
} from '@signet/kit';
import {
  billingV1,
  ceremonyV1,
  identityBrandingV1,
  identitySecurityV1,
  identityV1,
  ledgerV1,
  transactionBulkV1,
  transactionTemplatesV1,
  transactionV1,
  transactionWebhooksV1,
} from '@signet/proto';
import type { GatewayConfig } from './config.js';
import type { GatewayContext, RouteModule } from './http/context.js';
import { errorBoundary, sendError } from './http/errors.js';
import { openapiDocument } from './http/openapi.js';
import { securityHeaders } from './http/security-headers.js';
import { countTextRefusals } from './http/text.js';
import { adminRoutes } from './http/routes/admin/admin.routes.js';
import { embedOriginsRoutes } from './http/routes/admin/embed-origins.routes.js';
import { brandingRoutes } from './http/routes/branding/branding.routes.js';
import { authRoutes } from './http/routes/auth/auth.routes.js';
import { auditLogRoutes } from './http/routes/admin/audit-log.routes.js';
import { certificateRoutes } from './http/routes/certificate/certificate.routes.js';
import { evidenceRoutes } from './http/routes/ledger/evidence.routes.js';
import { dashboardRoutes } from './http/routes/dashboard/dashboard.routes.js';
import { ledgerRoutes } from './http/routes/ledger/ledger.routes.js';
import { ledgerKeysRoutes } from './http/routes/ledger/keys.routes.js';
import { ledgerCheckpointRoutes } from './http/routes/ledger/checkpoints.routes.js';
import { signRoutes } from './http/routes/sign/sign.routes.js';
import { transactionsRoutes } from './http/routes/transactions/transactions.routes.js';
import { signedPdfRoutes } from './http/routes/transactions/signed-pdf.routes.js';
import { downloadRoutes } from './http/routes/downloads/download.routes.js';
import { erasureRoutes } from './http/routes/privacy/erasure.routes.js';
import { biometricsRoutes } from './http/routes/transactions/biometrics.routes.js';
import { deletionRoutes } from './http/routes/transactions/deletion.routes.js';
import { testModeRoutes } from './http/routes/transactions/test-mode.routes.js';
import { verifyRoutes } from './http/routes/verify/verify.routes.js';
import { webhooksRoutes } from './http/routes/webhooks/webhooks.routes.js';
import { webhookEndpointsRoutes } from './http/routes/webhook-endpoints/webhook-endpoints.routes.js';
import { templatesRoutes } from './http/routes/templates/templates.routes.js';
import { bulkRoutes } from './http/routes/bulk/bulk.routes.js';
import { countRoleRefusals } from './http/roles.js';
import { membersRoutes } from './http/routes/members/members.routes.js';
import { upstreamBreakers, type Upstream } from './upstreams.js';

/** The public HTTP surface, wired to its dependencies; no side effects. */
export function buildApp(ctx: GatewayContext, checks: ReadinessCheck[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set(
    'trust proxy',
    ctx.cfg.TRUSTED_PROXIES.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  app.use(requestInstrumentation(ctx.metrics));
  app.use(
    securityHeaders({ hstsMaxAgeSeconds: ctx.cfg.HSTS_MAX_AGE_SECONDS, hstsIncludeSubdomains: ctx.cfg.HSTS_INCLUDE_SUBDOMAINS }),
  );
  mountOps(app, ctx.metrics, checks, { metrics: false });
  const modules: RouteModule[] = [
    verifyRoutes(ctx),
    authRoutes(ctx),
    adminRoutes(ctx),
    embedOriginsRoutes(ctx), // after adminRoutes, whose /api/admin guard covers it
    brandingRoutes(ctx), // after adminRoutes, whose /api/admin guard covers it
    membersRoutes(ctx), // after adminRoutes, whose /api/admin guard covers it
    auditLogRoutes(ctx), // after adminRoutes, whose /api/admin guard covers it
    dashboardRoutes(ctx), // after adminRoutes: its /api/admin route relies on the admin guard
    certificateRoutes(ctx),
    evidenceRoutes(ctx),
    transactionsRoutes(ctx),
    signedPdfRoutes(ctx),
    downloadRoutes(ctx),
    erasureRoutes(ctx),
    biometricsRoutes(ctx),
    deletionRoutes(ctx),
    testModeRoutes(ctx),
    signRoutes(ctx),
    webhooksRoutes(ctx),
    webhookEndpointsRoutes(ctx),
    templatesRoutes(ctx),
    bulkRoutes(ctx),
    ledgerRoutes(ctx),
    ledgerCheckpointRoutes(ctx),
    ledgerKeysRoutes(ctx),
  ];
  const openapi = openapiDocument(modules, ctx.cfg.PUBLIC_BASE_URL);
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  for (const m of modules) app.use(m.router);
  app.use('/api', (_req, res) => sendError(res, 404, 'no such endpoint'));
  app.use(countTextRefusals(ctx.metrics));
  app.use(countRoleRefusals(ctx.metrics));
  app.use(errorBoundary(ctx.logger));
  return app;
}

export async function startGateway(cfg: GatewayConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('gateway', cfg.LOG_LEVEL);
  const metrics = new Metrics('gateway');
  const deps = { metrics, defaultDeadlineMs: cfg.RPC_DEADLINE_MS };
  const breakers = upstreamBreakers(metrics);
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const ctx: GatewayContext = {
    cfg,
    logger,
    metrics,
    redis,
    identity: createClient(identityV1.IdentityServiceClient, cfg.IDENTITY_ADDR, { ...deps, breaker: breakers.identity }),
    branding: createClient(identityBrandingV1.BrandingServiceClient, cfg.IDENTITY_ADDR, { ...deps, breaker: breakers.identity }),
    security: createClient(identitySecurityV1.SecurityServiceClient, cfg.IDENTITY_ADDR, { ...deps, breaker: breakers.identity }),
    billing: createClient(billingV1.BillingServiceClient, cfg.BILLING_ADDR, { ...deps, breaker: breakers.billing }),
    transaction: createClient(transactionV1.TransactionServiceClient, cfg.TRANSACTION_ADDR, {
      ...deps,
      breaker: breakers.transaction,
    }),
    webhooks: createClient(transactionWebhooksV1.WebhookServiceClient, cfg.TRANSACTION_ADDR, {
      ...deps,
      breaker: breakers.transaction,
    }),
    templates: createClient(transactionTemplatesV1.TemplateServiceClient, cfg.TRANSACTION_ADDR, {
      ...deps,
      breaker: breakers.transaction,
    }),
    bulk: createClient(transactionBulkV1.BulkServiceClient, cfg.TRANSACTION_ADDR, { ...deps, breaker: breakers.transaction }),
    ceremony: createClient(ceremonyV1.CeremonyServiceClient, cfg.CEREMONY_ADDR, { ...deps, breaker: breakers.ceremony }),
    ledger: createClient(ledgerV1.LedgerServiceClient, cfg.LEDGER_ADDR, { ...deps, breaker: breakers.ledger }),
  };
  const addrs: Record<Upstream, string> = {
    identity: cfg.IDENTITY_ADDR,
    billing: cfg.BILLING_ADDR,
    transaction: cfg.TRANSACTION_ADDR,
    ceremony: cfg.CEREMONY_ADDR,
    ledger: cfg.LEDGER_ADDR,
  };
  // Readiness: the gateway is ready when it can serve, i.e. its Redis answers. An upstream that is
  // down opens its circuit and fails only the routes that call it (503, Retry-After), never the pod;
  // READINESS_UPSTREAMS (default none) opts named upstreams back in (docs/runbook.md "Readiness").
  const upstream = Object.fromEntries(
    cfg.READINESS_UPSTREAMS.split(',')
      .map((s) => s.trim())
      .filter((n): n is Upstream => n in addrs)
      .map((n) => [n, grpcHealthCheck(addrs[n])]),
  );
  const checks: ReadinessCheck[] = [
    { name: 'redis', check: () => redis.ping() },
    ...Object.entries(upstream).map(([name, h]) => ({ name, check: h.check })),
  ];
  const app = buildApp(ctx, checks);
  const http = await listen(app, cfg.HTTP_PORT);
  const ops = await listen(createOpsApp(metrics, checks), cfg.OPS_PORT);
  logger.info({ http_port: http.port, ops_port: ops.port }, 'gateway listening');
  return {
    httpPort: http.port,
    opsPort: ops.port,
    metrics,
    ctx,
    async stop() {
      await closeServer(http.server);
      await closeServer(ops.server);
      for (const c of [ctx.identity, ctx.security, ctx.billing, ctx.transaction, ctx.webhooks, ctx.ceremony, ctx.ledger])
        c.close();
      ctx.templates?.close();
      ctx.branding?.close();
      for (const h of Object.values(upstream)) h.close();
      redis.disconnect();
    },
  };
}
