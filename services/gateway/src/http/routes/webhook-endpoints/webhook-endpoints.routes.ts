import express, { Router } from 'express';
import type { z } from 'zod';
import type { transactionWebhooksV1 as wh } from '@signet/proto';
import { callerOf, requireCaller } from '../../auth.js';
import type { Caller, GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import {
  createBody,
  deliveriesQuery,
  deliveryParams,
  deliverySchema,
  endpointParams,
  endpointSchema,
  endpointWithSecretSchema,
  listQuery,
  rollQuery,
  updateBody,
} from './webhook-endpoints.schemas.js';

const TAGS = ['Webhook endpoints'];
const noSuchEndpoint = () => new HttpError(404, 'no such webhook endpoint');
const noSuchDelivery = () => new HttpError(404, 'no such webhook delivery');

type EndpointJson = z.input<typeof endpointSchema>;
const endpointJson = (e: wh.WebhookEndpoint): EndpointJson => ({
  id: e.id,
  url: e.url,
  event_types: e.eventTypes as EndpointJson['event_types'],
  description: e.description,
  enabled: e.enabled,
  mode: e.mode === 'test' ? 'test' : 'live',
  disabled_reason: e.disabledReason as EndpointJson['disabled_reason'],
  created_at: e.createdAt,
  updated_at: e.updatedAt,
  previous_secret_expires_at: e.previousSecretExpiresAt || null,
});

type DeliveryJson = z.input<typeof deliverySchema>;
const deliveryJson = (d: wh.WebhookDelivery): DeliveryJson => ({
  id: d.id,
  endpoint_id: d.endpointId,
  webhook_id: d.webhookId,
  event_type: d.eventType as DeliveryJson['event_type'],
  transaction_id: Number(d.transactionId),
  status: d.status as DeliveryJson['status'],
  created_at: d.createdAt,
  next_attempt_at: d.nextAttemptAt || null,
  attempts: d.attempts.map((a) => ({
    at: a.at,
    status: a.status,
    latency_ms: a.latencyMs,
    result: a.result as DeliveryJson['attempts'][number]['result'],
    response_snippet: a.responseSnippet,
  })),
});

/**
 * The modes a caller may see and change (issue 31: mode is part of ownership): an API key only its
 * own mode's endpoints (a test key never a live one), a dashboard session both.
 */
const scopeOf = (c: Caller): 'live' | 'test' | 'any' => (c.method === 'api_key' ? c.mode : 'any');

/** What every route of the module shares: the gateway, the caller guard, the body parser, the caller's owner and mode. */
type Shared = {
  ctx: GatewayContext;
  auth: express.RequestHandler;
  json: express.RequestHandler;
  /** Webhooks are an admin's (issue 34 item 1): every operation here needs the admin role. */
  common: { tags: string[]; security: 'caller'; role: 'admin' };
  noStore: { 'Cache-Control': typeof HEADERS.cacheControl };
  owner: (res: express.Response) => string;
  mode: (res: express.Response) => 'live' | 'test' | 'any';
};

/**
 * /api/webhook-endpoints*: the caller's outgoing webhook endpoints (Standard Webhooks, served by the
 * transaction service), their delivery log and manual redelivery. Another account's endpoint, and
 * one of the other mode for an API key, is 404.
 */
export function webhookEndpointsRoutes(ctx: GatewayContext): RouteModule {
  const shared: Shared = {
    ctx,
    auth: requireCaller(ctx),
    json: express.json({ limit: '16kb' }),
    common: { tags: TAGS, security: 'caller' as const, role: 'admin' as const },
    noStore: { 'Cache-Control': HEADERS.cacheControl },
    owner: (res) => callerOf(res).ownerId,
    mode: (res) => scopeOf(callerOf(res)),
  };
  const routes = [
    createRoute(shared),
    listRoute(shared),
    getRoute(shared),
    updateRoute(shared),
    removeRoute(shared),
    rollRoute(shared),
    deliveriesRoute(shared),
    redeliverRoute(shared),
  ];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}

/** POST /api/webhook-endpoints */
function createRoute({ ctx, auth, json, common, noStore }: Shared) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'Events are POSTed to the URL signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the ' +
      'endpoint’s own secret, returned only in this answer. A 2xx within 10 s counts as delivered; otherwise retried with ' +
      'exponential backoff for about 3 days, after which the endpoint is disabled and the account mailed.',
    use: [auth, json],
    body: createBody,
    responses: {
      201: { description: 'Created; `secret` is shown only now', body: endpointWithSecretSchema, headers: noStore },
      ...errorResponses(400, 401, 409),
    },
    async handle({ body }, _req, res) {
      const caller = callerOf(res);
      const scope = scopeOf(caller);
      if (scope !== 'any' && body.mode !== undefined && body.mode !== scope)
        throw new HttpError(400, `mode: a ${scope} API key creates only ${scope} endpoints`);
      const e = await ctx.webhooks.createWebhookEndpoint({
        ownerId: caller.ownerId,
        ownerEmail: caller.email,
        url: body.url,
        eventTypes: body.event_types,
        description: body.description ?? '',
        mode: scope === 'any' ? (body.mode ?? 'live') : scope,
      });
      return { status: 201 as const, body: { ...endpointJson(e), secret: e.secret } };
    },
  });
}

/** GET /api/webhook-endpoints */
function listRoute({ ctx, auth, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    summary: "The caller's webhook endpoints, most recent first",
    description: 'An API key sees the endpoints of its own mode; a dashboard session both, or one with `mode`.',
    use: [auth],
    query: listQuery,
    responses: {
      200: { description: 'The endpoints (without secrets)', body: endpointSchema.array(), headers: noStore },
      ...errorResponses(400, 401),
    },
    async handle({ query }, _req, res) {
      const scope = mode(res);
      // A filter narrows what the caller may see; a key asking for the other mode sees nothing.
      if (scope !== 'any' && query.mode !== undefined && query.mode !== scope) return { status: 200 as const, body: [] };
      const r = await ctx.webhooks.listWebhookEndpoints({ ownerId: owner(res), mode: query.mode ?? scope });
      return { status: 200 as const, body: r.items.map(endpointJson) };
    },
  });
}

/** GET /api/webhook-endpoints/{id} */
function getRoute({ ctx, auth, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/webhook-endpoints/{id}',
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint',
    use: [auth],
    params: endpointParams,
    invalidParams: noSuchEndpoint,
    responses: {
      200: { description: 'The endpoint (without its secret)', body: endpointSchema, headers: noStore },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      return {
        status: 200 as const,
        body: endpointJson(await ctx.webhooks.getWebhookEndpoint({ ownerId: owner(res), id: params.id, mode: mode(res) })),
      };
    },
  });
}

/** PATCH /api/webhook-endpoints/{id} */
function updateRoute({ ctx, auth, json, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'patch',
    path: '/api/webhook-endpoints/{id}',
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description: 'Only the fields given change. `enabled: true` turns on an endpoint disabled after persistent failure.',
    use: [auth, json],
    params: endpointParams,
    invalidParams: noSuchEndpoint,
    body: updateBody,
    responses: {
      200: { description: 'The endpoint as changed', body: endpointSchema, headers: noStore },
      ...errorResponses(400, 401, 404),
    },
    async handle({ params, body }, _req, res) {
      const e = await ctx.webhooks.updateWebhookEndpoint({
        ownerId: owner(res),
        id: params.id,
        mode: mode(res),
        url: body.url,
        eventTypes: body.event_types ?? [],
        updateEventTypes: body.event_types !== undefined,
        description: body.description,
        enabled: body.enabled,
      });
      return { status: 200 as const, body: endpointJson(e) };
    },
  });
}

/** DELETE /api/webhook-endpoints/{id} */
function removeRoute({ ctx, auth, common, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries are cancelled.',
    use: [auth],
    params: endpointParams,
    invalidParams: noSuchEndpoint,
    responses: {
      204: { description: 'Deleted' },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      await ctx.webhooks.deleteWebhookEndpoint({ ownerId: owner(res), id: params.id, mode: mode(res) });
      res.status(204).end();
      return undefined;
    },
  });
}

/** POST /api/webhook-endpoints/{id}/roll-secret */
function rollRoute({ ctx, auth, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/webhook-endpoints/{id}/roll-secret',
    operationId: 'rollWebhookSecret',
    summary: 'Replace the endpoint’s signing secret',
    description:
      'The new secret is shown only in this answer; deliveries are signed with it from now on. During the overlap ' +
      '(overlap_seconds, default a day) each delivery’s webhook-signature carries both signatures, space-separated as ' +
      'Standard Webhooks allows, so a receiver can switch secrets without losing a delivery; afterwards only the new one.',
    use: [auth],
    params: endpointParams,
    query: rollQuery,
    invalidParams: noSuchEndpoint,
    responses: {
      200: { description: 'The endpoint with its new secret', body: endpointWithSecretSchema, headers: noStore },
      ...errorResponses(400, 401, 404),
    },
    async handle({ params, query }, _req, res) {
      const e = await ctx.webhooks.rollWebhookSecret({
        ownerId: owner(res),
        id: params.id,
        mode: mode(res),
        overlapSeconds: query.overlap_seconds,
      });
      return { status: 200 as const, body: { ...endpointJson(e), secret: e.secret } };
    },
  });
}

/** GET /api/webhook-endpoints/{id}/deliveries */
function deliveriesRoute({ ctx, auth, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/webhook-endpoints/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The endpoint’s delivery log, most recent first',
    description: 'Each delivery with its attempts: time, HTTP status, latency and at most 1 KB of the answer.',
    use: [auth],
    params: endpointParams,
    invalidParams: noSuchEndpoint,
    query: deliveriesQuery,
    responses: {
      200: { description: 'The deliveries', body: deliverySchema.array(), headers: noStore },
      ...errorResponses(400, 401, 404),
    },
    async handle({ params, query }, _req, res) {
      const r = await ctx.webhooks.listWebhookDeliveries({
        ownerId: owner(res),
        endpointId: params.id,
        mode: mode(res),
        limit: query.limit ?? 50,
      });
      return { status: 200 as const, body: r.items.map(deliveryJson) };
    },
  });
}

/** POST /api/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver */
function redeliverRoute({ ctx, auth, common, noStore, owner, mode }: Shared) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again now',
    description: 'Whatever its state, with the same webhook-id, as a new round of retries. 409 while the endpoint is disabled.',
    use: [auth],
    params: deliveryParams,
    invalidParams: noSuchDelivery,
    responses: {
      202: { description: 'Due now', body: deliverySchema, headers: noStore },
      ...errorResponses(401, 404, 409),
    },
    async handle({ params }, _req, res) {
      const d = await ctx.webhooks.redeliverWebhook({
        ownerId: owner(res),
        endpointId: params.id,
        deliveryId: params.delivery_id,
        mode: mode(res),
      });
      return { status: 202 as const, body: deliveryJson(d) };
    },
  });
}
