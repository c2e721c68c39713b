import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  summary?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/**
 * The document as /api/openapi.json serves it, from the real app. Nothing is called: clients and
 * Redis connect lazily and no route runs but the document's.
 */
describe('GET /api/openapi.json', () => {
  let doc: Doc;
  let close: () => void;

  beforeAll(async () => {
    const cfg = parseConfig(gatewayConfigSchema, {
      HTTP_PORT: '1',
      OPS_PORT: '2',
      PUBLIC_BASE_URL: 'http://signet.test',
      REDIS_URL: 'redis://127.0.0.1:1',
      IDENTITY_ADDR: '127.0.0.1:1',
      TRANSACTION_ADDR: '127.0.0.1:1',
      CEREMONY_ADDR: '127.0.0.1:1',
      LEDGER_ADDR: '127.0.0.1:1',
      BILLING_ADDR: '127.0.0.1:1',
    });
    const metrics = new Metrics('gateway');
    const deps = { metrics };
    const ctx: GatewayContext = {
      cfg,
      logger: createLogger('gateway-test', 'silent'),
      metrics,
      redis: new Redis(cfg.REDIS_URL, { lazyConnect: true }),
      identity: createClient(identityV1.IdentityServiceClient, cfg.IDENTITY_ADDR, deps),
      security: createClient(identitySecurityV1.SecurityServiceClient, cfg.IDENTITY_ADDR, deps),
      billing: createClient(billingV1.BillingServiceClient, cfg.BILLING_ADDR, deps),
      transaction: createClient(transactionV1.TransactionServiceClient, cfg.TRANSACTION_ADDR, deps),
      webhooks: createClient(transactionWebhooksV1.WebhookServiceClient, cfg.TRANSACTION_ADDR, deps),
      bulk: createClient(transactionBulkV1.BulkServiceClient, cfg.TRANSACTION_ADDR, deps),
      ceremony: createClient(ceremonyV1.CeremonyServiceClient, cfg.CEREMONY_ADDR, deps),
      ledger: createClient(ledgerV1.LedgerServiceClient, cfg.LEDGER_ADDR, deps),
    };
    const server = buildApp(ctx, []).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/openapi.json`);
    doc = (await res.json()) as Doc;
    close = () => {
      server.close();
      for (const c of [ctx.identity, ctx.security, ctx.billing, ctx.transaction, ctx.webhooks, ctx.ceremony, ctx.ledger])
        c.close();
      ctx.redis.disconnect();
    };
  });
  afterAll(() => close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
    );

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const r = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(r.errors, JSON.stringify(r.errors, null, 1)?.slice(0, 2000)).toBeUndefined();
    expect(r.valid).toBe(true);
  });

  it('every operation has an operation id (the SDK names operations by it: one without is missing from the SDK)', () => {
    const missing = operations()
      .filter((o) => !o.op.operationId)
      .map((o) => o.at);
    expect(missing).toEqual([]);
    expect(operations().length).toBeGreaterThanOrEqual(60);
  });

  it('describes what a client reads: bodies of the transaction detail and every signing answer, paging and idempotency headers', () => {
    const json = (op: Operation | undefined, status: string) => op?.responses[status]?.content?.['application/json']?.schema;
    expect(json(doc.paths['/api/transactions/{id}']?.get, '200')).toEqual({ $ref: '#/components/schemas/TransactionDetail' });
    for (const [path, item] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/sign/') && !p.endsWith('/document')))
      for (const [method, op] of Object.entries(item)) {
        const ok = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
        expect(json(op, ok), `${method} ${path}`).toBeDefined();
      }
    const list = doc.paths['/api/transactions']!.get!;
    expect(Object.keys(list.responses['200']!.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Next-Cursor', 'Link', 'Cache-Control']),
    );
    expect(doc.paths['/api/transactions']!.post!.parameters?.map((p) => `${p.in}:${p.name}`)).toContain('header:Idempotency-Key');
    const webhook = Object.entries(doc.paths).find(([p]) => p.startsWith('/api/webhooks/'))![1].post!;
    expect(webhook.operationId).toBe('receivePaymentWebhook');
  });

  it('operation ids are unique', () => {
    const ids = operations()
      .map((o) => o.op.operationId)
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declared operations have an id, a summary, tags, a body schema for every JSON answer and the {"detail"} error', () => {
    const declared = operations().filter((o) => o.op.operationId);
    expect(declared.length).toBeGreaterThan(0);
    for (const { at, op } of declared) {
      expect(op.summary, at).toBeTruthy();
      expect(op.tags?.length, at).toBeGreaterThan(0);
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) >= 400)
          expect(r.content?.['application/json']?.schema, `${at} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        if (Number(status) === 429 || Number(status) === 503) expect(r.headers?.['Retry-After'], `${at} ${status}`).toBeDefined();
      }
      expect(
        Object.keys(op.responses).some((s) => Number(s) < 300),
        at,
      ).toBe(true);
    }
  });
});
