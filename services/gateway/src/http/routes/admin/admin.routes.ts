import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { text } from '../../text.js';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { csrfTokenFor, requireCsrf } from '../../csrf.js';
import { HttpError, badRequest } from '../../errors.js';
import { parseBody } from '../../parse-body.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { auditCall } from '../auth/client-info.js';
import { lifecycleOf, lifecycleSettingsFields, lifecycleSettingsOut } from './lifecycle-settings.js';

const keyMode = z.enum(['live', 'test']).meta({
  description:
    'live (default): real, billed transactions; test: free, marked test, never listed with live data (prefix sgn_test_)',
});
const scope = z.enum(['read', 'write', 'admin']).meta({
  description:
    'read: what a viewer may do; write: also what a sender may do; admin: also what an admin may do (never above the member’s role)',
});
const createKey = z.object({
  name: text({ trim: true, nfc: true, min: 1, max: 100 }),
  mode: keyMode.optional(),
  scopes: z
    .array(scope)
    .min(1, 'give at least one scope, or leave scopes out for those of your role')
    .max(3)
    .optional()
    .meta({ description: 'Default: every scope your role allows. A scope above your role is 403.' }),
  expires_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
    .optional()
    .meta({ description: 'When the key stops working (refused with 401 from then on); absent: never' }),
});

/** Session length bounds in hours (identity checks them again): 1 hour to 30 days. */
export const SESSION_TTL_HOURS = { min: 1, max: 720 } as const;
const hours = z
  .number({ error: 'must be a whole number of hours' })
  .int('must be a whole number of hours')
  .min(SESSION_TTL_HOURS.min, `must be at least ${SESSION_TTL_HOURS.min}`)
  .max(SESSION_TTL_HOURS.max, `must be at most ${SESSION_TTL_HOURS.max} (30 days)`);
/** Days biometric data is kept after a transaction ends; identity checks the operator's maximum. */
const days = z
  .number({ error: 'must be a whole number of days' })
  .int('must be a whole number of days')
  .min(0, 'must be at least 0')
  .max(3650, 'must be at most 3650');
const settingsFields = {
  session_ttl_hours: hours.optional().meta({ description: 'Validity of new sessions in hours (default 24; 720 = 30 days)' }),
  biometric_retention_days: days.optional().meta({
    description:
      'Days the face video, frames and reference photo of transactions created from now on are kept after they end ' +
      '(the operator sets the maximum; an answer of 400 names it)',
  }),
  ...lifecycleSettingsFields,
};
const SETTINGS_FIELDS = Object.keys(settingsFields);
const ONE_SETTING = `${SETTINGS_FIELDS[0]} or another setting is required; the settings are ${SETTINGS_FIELDS.join(', ')}`;
const settings = z.strictObject(settingsFields).refine((b) => SETTINGS_FIELDS.some((k) => b[k as keyof typeof b] !== undefined), {
  message: ONE_SETTING,
  path: [SETTINGS_FIELDS[0]!],
});

/** The settings body: only known fields (a typo must not pass as "nothing to change"), each valid. */
export function parseSettings(body: unknown) {
  knownSettings(body);
  return parseBody(settings, body);
}

function knownSettings(body: unknown) {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((k) => !SETTINGS_FIELDS.includes(k));
    if (unknown !== undefined)
      throw badRequest(`${unknown.slice(0, 64)}: unknown setting; the settings are ${SETTINGS_FIELDS.join(', ')}`);
  }
}

const time = z.string().meta({ format: 'date-time' });
const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The visible start of the key: 12 characters, 17 for a test key (sgn_test_…)' }),
    mode: keyMode,
    scopes: z.array(scope),
    expires_at: time.nullable().meta({ description: 'When the key stops working; null: never' }),
    created_by: z.string().meta({ description: 'The member whose role bounds the key (removing them revokes it)' }),
    created_at: time,
    last_used_at: time.nullable().meta({ description: 'Updated at most once a minute' }),
  })
  .meta({ id: 'ApiKey' });
const createdKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: 'Send as X-API-Key; shown once' }) })
  .meta({ id: 'ApiKeyCreated' });
const csrfQuery = z.object({ csrf: z.string().meta({ description: 'Token from GET /api/admin/csrf' }) });

const keyOut = (k: identityV1.ApiKey): z.input<typeof apiKeySchema> => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  mode: k.mode === 'test' ? 'test' : 'live',
  scopes: k.scopes.filter((s): s is z.infer<typeof scope> => s === 'read' || s === 'write' || s === 'admin'),
  expires_at: k.expiresAt || null,
  created_by: k.createdBy,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt || null,
});

/**
 * /api/admin/*: the dashboard API. Every route needs a session JWT (API keys are refused: a leaked
 * key must not be able to mint or revoke keys); every mutation also needs `?csrf=` from
 * GET /api/admin/csrf. The guard is mounted on the /api/admin prefix, so admin routes of other
 * modules get it too.
 */
export function adminRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  r.use('/api/admin', express.json({ limit: '16kb' }), requireCaller(ctx, { allowApiKey: false }), requireCsrf(ctx));
  const routes = [
    csrfRoute(ctx),
    createApiKeyRoute(ctx),
    listApiKeysRoute(ctx),
    revokeApiKeyRoute(ctx),
    updateSettingsRoute(ctx),
  ];
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}

const common = { tags: ['Dashboard'], security: 'session' as const };
const noStore = { 'Cache-Control': HEADERS.cacheControl };
const mutationErrors = {
  ...errorResponses(400, 401),
  403: {
    ...errorResponses(403)[403]!,
    description: 'csrf query parameter missing or invalid, or a role or scope above the caller’s',
  },
};

function csrfRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/csrf',
    operationId: 'getCsrfToken',
    summary: 'The CSRF token of this session, for the csrf query parameter of /api/admin/* mutations',
    responses: { 200: { description: 'Token', body: z.object({ csrf: z.string() }), headers: noStore }, ...errorResponses(401) },
    async handle(_input, _req, res) {
      return { status: 200 as const, body: { csrf: await csrfTokenFor(ctx, callerOf(res)) } };
    },
  });
}

function createApiKeyRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/admin/api-keys',
    operationId: 'createApiKey',
    role: 'admin',
    summary: 'Create an API key with scopes and an optional expiry; the full key is in this response only',
    query: csrfQuery,
    body: createKey,
    responses: { 201: { description: 'Created', body: createdKeySchema, headers: noStore }, ...mutationErrors },
    async handle({ body: b }, req, res) {
      const out = await ctx.identity.createApiKey(
        {
          userId: callerOf(res).userId,
          name: b.name,
          mode: b.mode ?? 'live',
          scopes: b.scopes ?? [],
          expiresAt: b.expires_at ? new Date(b.expires_at).toISOString() : '',
        },
        auditCall(req),
      );
      return { status: 201 as const, body: { ...keyOut(out.key!), key: out.secret } };
    },
  });
}

function listApiKeysRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/api-keys',
    operationId: 'listApiKeys',
    role: 'admin',
    summary: 'List the organisation’s active API keys (prefix, name, scopes, expiry, maker, created and last-used times)',
    responses: {
      200: { description: 'Keys, newest first', body: z.object({ api_keys: z.array(apiKeySchema) }), headers: noStore },
      ...errorResponses(401),
    },
    async handle(_input, _req, res) {
      const out = await ctx.identity.listApiKeys({ userId: callerOf(res).userId });
      return { status: 200 as const, body: { api_keys: out.keys.map(keyOut) } };
    },
  });
}

function revokeApiKeyRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/admin/api-keys/{id}',
    operationId: 'revokeApiKey',
    role: 'admin',
    summary: 'Revoke an API key; it stops working at once on every gateway replica',
    params: z.object({ id: z.string().min(1).max(64) }),
    invalidParams: () => new HttpError(404, 'no such API key'),
    query: csrfQuery,
    responses: { 204: { description: 'Revoked' }, ...mutationErrors, ...errorResponses(404) },
    async handle({ params }, req, res) {
      await ctx.identity.revokeApiKey({ userId: callerOf(res).userId, id: params.id }, auditCall(req));
      // Identity has committed the revocation: drop every cached credential on every replica.
      await invalidateCredentials(ctx);
      res.status(204).end();
      return undefined;
    },
  });
}

/** An unknown field is refused before the body's own checks, so the answer names it. */
const settingsFirst = (req: Request, _res: Response, next: NextFunction) => {
  knownSettings(req.body);
  next();
};

// Applies to sessions issued from now on; sessions already issued keep their expiry (and are not ended).
function updateSettingsRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'patch',
    path: '/api/admin/account/settings',
    operationId: 'updateAccountSettings',
    role: 'admin',
    summary: 'Change the account’s settings: session length, biometric retention, expiry and reminder defaults',
    description:
      'session_ttl_hours applies to sessions issued from then on (login, two-factor login, password change); ' +
      'sessions already issued keep their expiry and are not ended. biometric_retention_days applies to ' +
      'transactions created from then on (shown to their signers in the consent text). expiry_days and the reminder ' +
      'schedule (reminder_first_after_hours, reminder_every_hours, reminder_max) apply to transactions created from then ' +
      'on without expires_at or reminder fields of their own. The current values are in ' +
      'POST /api/auth/me. Unknown fields, no field, or a value out of range: 400 and nothing changes.',
    use: [settingsFirst],
    query: csrfQuery,
    body: settings,
    responses: {
      200: {
        description: 'The settings now in force',
        body: z.object({ session_ttl_hours: z.int(), biometric_retention_days: z.int(), ...lifecycleSettingsOut }),
        headers: noStore,
      },
      ...mutationErrors,
    },
    async handle({ body: b }, req, res) {
      const p = await ctx.identity.updateAccountSettings(
        {
          userId: callerOf(res).ownerId,
          // 0 keeps the session length when only other settings change (identity.proto)
          sessionTtlHours: b.session_ttl_hours ?? 0,
          biometricRetentionDays: b.biometric_retention_days,
          expiryDays: b.expiry_days,
          reminderFirstAfterHours: b.reminder_first_after_hours,
          reminderEveryHours: b.reminder_every_hours,
          reminderMax: b.reminder_max,
        },
        auditCall(req, callerOf(res).userId),
      );
      return {
        status: 200 as const,
        body: { session_ttl_hours: p.sessionTtlHours, biometric_retention_days: p.biometricRetentionDays, ...lifecycleOf(p) },
      };
    },
  });
}
