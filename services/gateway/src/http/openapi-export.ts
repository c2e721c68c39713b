import { Redis } from 'ioredis';
import { createClient, createLogger, Metrics, parseConfig } from '@signet/kit';
import {
  billingV1,
  ceremonyV1,
  identitySecurityV1,
  identityV1,
  ledgerV1,
  transactionBulkV1,
  transactionV1,
  transactionWebhooksV1,
} from '@signet/proto';
import { buildApp } from '../app.js';
import { gatewayConfigSchema } from '../config.js';
import type { GatewayContext } from './context.js';

/**
 * The OpenAPI document as the gateway serves it, built without a running stack (for the SDK's
 * generator and its staleness test): clients and Redis connect lazily and nothing is called.
 */
export async function exportOpenapi(baseUrl = 'https://signet.example'): Promise<Record<string, unknown>> {
  const none = '127.0.0.1:1';
  const cfg = parseConfig(gatewayConfigSchema, {
    HTTP_PORT: '1',
    OPS_PORT: '2',
    PUBLIC_BASE_URL: baseUrl,
    REDIS_URL: 'redis://127.0.0.1:1',
    IDENTITY_ADDR: none,
    TRANSACTION_ADDR: none,
    CEREMONY_ADDR: none,
    LEDGER_ADDR: none,
    BILLING_ADDR: none,
  });
  const metrics = new Metrics('gateway');
  const deps = { metrics };
  const ctx: GatewayContext = {
    cfg,
    logger: createLogger('gateway', 'silent'),
    metrics,
    redis: new Redis(cfg.REDIS_URL, { lazyConnect: true }),
    identity: createClient(identityV1.IdentityServiceClient, none, deps),
    security: createClient(identitySecurityV1.SecurityServiceClient, none, deps),
    billing: createClient(billingV1.BillingServiceClient, none, deps),
    transaction: createClient(transactionV1.TransactionServiceClient, none, deps),
    webhooks: createClient(transactionWebhooksV1.WebhookServiceClient, none, deps),
    bulk: createClient(transactionBulkV1.BulkServiceClient, none, deps),
    ceremony: createClient(ceremonyV1.CeremonyServiceClient, none, deps),
    ledger: createClient(ledgerV1.LedgerServiceClient, none, deps),
  };
  const server = buildApp(ctx, []).listen(0, '127.0.0.1');
  try {
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
    return (await res.json()) as Record<string, unknown>;
  } finally {
    server.close();
    for (const c of [ctx.identity, ctx.security, ctx.billing, ctx.transaction, ctx.ceremony, ctx.ledger]) c.close();
    ctx.redis.disconnect();
  }
}
