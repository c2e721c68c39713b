import { conflict } from '@signet/kit';
import type { transactionWebhooksV1 as wh } from '@signet/proto';
import { deliveryNotFound, endpointNotFound } from '../domain/errors.js';
import type { DeliveryRecord } from '../store/webhook.repository.js';
import { parseMode, parseScope } from '../domain/mode.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rollSecret,
  updateEndpoint,
  type EndpointDeps,
  type EndpointView,
} from '../usecases/manage-endpoints.js';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

const toEndpoint = (v: EndpointView): wh.WebhookEndpoint => ({
  id: v._id,
  url: v.url,
  eventTypes: v.event_types,
  description: v.description,
  enabled: v.enabled,
  disabledReason: v.disabled_reason,
  createdAt: iso(v.created_at),
  updatedAt: iso(v.updated_at),
  secret: v.secret ?? '',
  previousSecretExpiresAt: v.previous_secret_until ? iso(v.previous_secret_until) : '',
  mode: v.mode,
});

const toDelivery = (d: Omit<DeliveryRecord, 'payload'>): wh.WebhookDelivery => ({
  id: d._id,
  endpointId: d.endpoint_id,
  webhookId: d.webhook_id,
  eventType: d.event_type,
  status: d.status,
  createdAt: iso(d.created_at),
  nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : '',
  transactionId: d.transaction_id,
  attempts: (d.attempts ?? []).map((a) => ({
    at: iso(a.at),
    status: a.status,
    latencyMs: a.latency_ms,
    result: a.result,
    responseSnippet: a.response_snippet,
  })),
});

type Unary<Req, Res> = (req: Req) => Promise<Res>;
export type WebhookHandlers = {
  createWebhookEndpoint: Unary<wh.CreateWebhookEndpointRequest, wh.WebhookEndpoint>;
  listWebhookEndpoints: Unary<wh.OwnerRequest, wh.ListWebhookEndpointsResponse>;
  getWebhookEndpoint: Unary<wh.WebhookEndpointRequest, wh.WebhookEndpoint>;
  updateWebhookEndpoint: Unary<wh.UpdateWebhookEndpointRequest, wh.WebhookEndpoint>;
  deleteWebhookEndpoint: Unary<wh.WebhookEndpointRequest, wh.DeleteWebhookEndpointResponse>;
  rollWebhookSecret: Unary<wh.RollWebhookSecretRequest, wh.WebhookEndpoint>;
  listWebhookDeliveries: Unary<wh.ListWebhookDeliveriesRequest, wh.ListWebhookDeliveriesResponse>;
  redeliverWebhook: Unary<wh.RedeliverWebhookRequest, wh.WebhookDelivery>;
};

/** The WebhookService RPCs: each maps its request, calls one use case and maps the answer. */
export function webhookHandlers(deps: EndpointDeps & { kick: () => void }): WebhookHandlers {
  return {
    async createWebhookEndpoint(req: wh.CreateWebhookEndpointRequest): Promise<wh.WebhookEndpoint> {
      return toEndpoint(
        await createEndpoint(deps, {
          ownerId: req.ownerId,
          ownerEmail: req.ownerEmail,
          url: req.url,
          eventTypes: req.eventTypes,
          description: req.description,
          mode: parseMode(req.mode),
        }),
      );
    },
    async listWebhookEndpoints(req: wh.OwnerRequest): Promise<wh.ListWebhookEndpointsResponse> {
      return { items: (await listEndpoints(deps, req.ownerId, parseScope(req.mode))).map(toEndpoint) };
    },
    async getWebhookEndpoint(req: wh.WebhookEndpointRequest): Promise<wh.WebhookEndpoint> {
      return toEndpoint(await getEndpoint(deps, req.ownerId, req.id, parseScope(req.mode)));
    },
    async updateWebhookEndpoint(req: wh.UpdateWebhookEndpointRequest): Promise<wh.WebhookEndpoint> {
      return toEndpoint(
        await updateEndpoint(deps, {
          ownerId: req.ownerId,
          id: req.id,
          scope: parseScope(req.mode),
          url: req.url,
          eventTypes: req.updateEventTypes ? req.eventTypes : undefined,
          description: req.description,
          enabled: req.enabled,
        }),
      );
    },
    async deleteWebhookEndpoint(req: wh.WebhookEndpointRequest): Promise<wh.DeleteWebhookEndpointResponse> {
      await deleteEndpoint(deps, req.ownerId, req.id, parseScope(req.mode));
      return {};
    },
    async rollWebhookSecret(req: wh.RollWebhookSecretRequest): Promise<wh.WebhookEndpoint> {
      return toEndpoint(await rollSecret(deps, req.ownerId, req.id, req.overlapSeconds, parseScope(req.mode)));
    },
    async listWebhookDeliveries(req: wh.ListWebhookDeliveriesRequest): Promise<wh.ListWebhookDeliveriesResponse> {
      // The endpoint decides: its deliveries are seen only by who may see it (owner and mode).
      await getEndpoint(deps, req.ownerId, req.endpointId, parseScope(req.mode));
      const limit = Math.min(Math.max(req.limit || 50, 1), 200);
      return { items: (await deps.store.listDeliveries(req.ownerId, req.endpointId, limit)).map(toDelivery) };
    },
    async redeliverWebhook(req: wh.RedeliverWebhookRequest): Promise<wh.WebhookDelivery> {
      const ep = await deps.store.findEndpoint(req.ownerId, req.endpointId, parseScope(req.mode));
      if (!ep) throw endpointNotFound();
      if (!ep.enabled) throw conflict('the endpoint is disabled; enable it before redelivering', 'ENDPOINT_DISABLED');
      const d = await deps.store.redeliver(req.ownerId, req.endpointId, req.deliveryId, deps.clock());
      if (!d) throw deliveryNotFound();
      deps.kick();
      return toDelivery(d);
    },
  };
}
