import type { Redis } from 'ioredis';
import type { Logger, Metrics, ServiceClient } from '@signet/kit';
import type {
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
import type { GatewayConfig } from '../config.js';

/** Everything a route module may use. Built once in app.ts; route modules never open clients. */
export type GatewayContext = {
  cfg: GatewayConfig;
  logger: Logger;
  metrics: Metrics;
  redis: Redis;
  identity: ServiceClient<identityV1.IdentityServiceClient>;
  /** Organisations' branding (issue 34 item 4): served by the identity process; unset where no route needs it (the OpenAPI export). */
  branding?: ServiceClient<identityBrandingV1.BrandingServiceClient>;
  /** Audited sign-ins, passkeys, recovery codes and the audit log: served by the identity process (same address, same breaker). */
  security: ServiceClient<identitySecurityV1.SecurityServiceClient>;
  billing: ServiceClient<billingV1.BillingServiceClient>;
  transaction: ServiceClient<transactionV1.TransactionServiceClient>;
  /** Outgoing webhooks: served by the transaction process (same address, same breaker). */
  webhooks: ServiceClient<transactionWebhooksV1.WebhookServiceClient>;
  /** Templates (issue 33): served by the transaction process; unset where no route needs them (the OpenAPI export). */
  templates?: ServiceClient<transactionTemplatesV1.TemplateServiceClient>;
  /** Bulk send (issue 33): served by the transaction process (same address, same breaker). */
  bulk: ServiceClient<transactionBulkV1.BulkServiceClient>;
  ceremony: ServiceClient<ceremonyV1.CeremonyServiceClient>;
  ledger: ServiceClient<ledgerV1.LedgerServiceClient>;
  /** Tests: every declared answer is checked against its schema (route.ts); a mismatch is a 500. */
  validateResponses?: boolean;
};

/** A member's role in their organisation, lowest first (route.ts enforces each operation's). */
export const ROLES = ['viewer', 'sender', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The authenticated caller, set on res.locals.caller by the auth middleware. `userId` is the member
 * (their own profile, password, two-factor); `ownerId` is the organisation, whose data every route
 * reads and writes (an organisation's id is its owner's user id, so an owner's two are equal).
 */
export type Caller = {
  userId: string;
  ownerId: string;
  /** What the credential may do: the member's role, for a key bounded by its scopes. */
  role: Role;
  /** An API key's scopes (read, write, admin); empty for a session. */
  scopes: string[];
  email: string;
  orgName: string;
  method: 'api_key' | 'session';
  /** The API key's mode; a session is live unless its request says `Signet-Mode: test` (auth.ts). Test-mode data is never mixed with live data. */
  mode: 'live' | 'test';
  sessionId: string;
  /** Expiry in Unix seconds: a session's, or an API key's when it has one (the cache never outlives it). */
  expiresAt?: number;
};

/**
 * A route module: its router, its declared operations (route.ts; the OpenAPI document is generated
 * from them) and, for modules not yet declared that way, their hand-written OpenAPI paths.
 */
export type RouteModule = {
  router: import('express').Router;
  routes?: import('./route.js').AnyRoute[];
  openapi?: Record<string, unknown>;
};
