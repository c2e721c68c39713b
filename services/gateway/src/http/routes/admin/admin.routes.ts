import express, { Router } from 'express';
import { z } from 'zod';
import type { identityV1 } from '@signet/proto';
import { callerOf, invalidateCredentials, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { csrfTokenFor, requireCsrf } from '../../csrf.js';
import { HttpError, badRequest } from '../../errors.js';
import { parseBody } from '../../parse-body.js';

const createKey = z.object({ name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters') });

/** Session length bounds in hours (identity checks them again): 1 hour to 30 days. */
export const SESSION_TTL_HOURS = { min: 1, max: 720 } as const;
const hours = z
  .number({ error: 'must be a whole number of hours' })
  .int('must be a whole number of hours')
  .min(SESSION_TTL_HOURS.min, `must be at least ${SESSION_TTL_HOURS.min}`)
  .max(SESSION_TTL_HOURS.max, `must be at most ${SESSION_TTL_HOURS.max} (30 days)`);
const settings = z.object({ session_ttl_hours: hours });
const SETTINGS_FIELDS = Object.keys(settings.shape);

/** The settings body: only known fields (a typo must not pass as "nothing to change"), each valid. */
export function parseSettings(body: unknown) {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((k) => !SETTINGS_FIELDS.includes(k));
    if (unknown !== undefined)
      throw badRequest(`${unknown.slice(0, 64)}: unknown setting; the settings are ${SETTINGS_FIELDS.join(', ')}`);
  }
  return parseBody(settings, body);
}

const keyOut = (k: identityV1.ApiKey) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
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

  r.get('/api/admin/csrf', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ csrf: await csrfTokenFor(ctx, callerOf(res)) });
  });

  r.post('/api/admin/api-keys', async (req, res) => {
    const b = parseBody(createKey, req.body);
    const out = await ctx.identity.createApiKey({ userId: callerOf(res).userId, name: b.name });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ ...keyOut(out.key!), key: out.secret });
  });

  r.get('/api/admin/api-keys', async (_req, res) => {
    const out = await ctx.identity.listApiKeys({ userId: callerOf(res).userId });
    res.json({ api_keys: out.keys.map(keyOut) });
  });

  r.delete('/api/admin/api-keys/:id', async (req, res) => {
    const id = req.params.id;
    if (!id || id.length > 64) throw new HttpError(404, 'no such API key');
    await ctx.identity.revokeApiKey({ userId: callerOf(res).userId, id });
    // Identity has committed the revocation: drop every cached credential on every replica.
    await invalidateCredentials(ctx);
    res.status(204).end();
  });

  // Applies to sessions issued from now on; sessions already issued keep their expiry (and are not ended).
  r.patch('/api/admin/account/settings', async (req, res) => {
    const b = parseSettings(req.body);
    const p = await ctx.identity.updateAccountSettings({ userId: callerOf(res).userId, sessionTtlHours: b.session_ttl_hours });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ session_ttl_hours: p.sessionTtlHours });
  });

  const csrfParam = {
    name: 'csrf',
    in: 'query',
    required: true,
    schema: { type: 'string' },
    description: 'Token from GET /api/admin/csrf',
  };
  const apiKey = {
    type: 'object',
    required: ['id', 'name', 'prefix', 'created_at', 'last_used_at'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      prefix: { type: 'string', minLength: 12, maxLength: 12, description: 'The first 12 characters of the key' },
      created_at: { type: 'string', format: 'date-time' },
      last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Updated at most once a minute' },
    },
  };
  const jwt = [{ bearer: [] }];
  const common = { '401': { $ref: '#/components/responses/Unauthorized' } };
  const mutation = { ...common, '403': { description: 'csrf query parameter missing or invalid' } };
  return {
    router: r,
    openapi: {
      '/api/admin/csrf': {
        get: {
          tags: ['admin'],
          summary: 'The CSRF token of this session, for the csrf query parameter of /api/admin/* mutations',
          security: jwt,
          responses: {
            '200': {
              description: 'Token',
              content: {
                'application/json': { schema: { type: 'object', required: ['csrf'], properties: { csrf: { type: 'string' } } } },
              },
            },
            ...common,
          },
        },
      },
      '/api/admin/api-keys': {
        get: {
          tags: ['admin'],
          summary: 'List the caller’s active API keys (prefix, name, created and last-used times)',
          security: jwt,
          responses: {
            '200': {
              description: 'Keys, newest first',
              content: {
                'application/json': { schema: { type: 'object', properties: { api_keys: { type: 'array', items: apiKey } } } },
              },
            },
            ...common,
          },
        },
        post: {
          tags: ['admin'],
          summary: 'Create an API key; the full key is in this response only',
          security: jwt,
          parameters: [csrfParam],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'Created',
              content: {
                'application/json': {
                  schema: {
                    ...apiKey,
                    required: [...apiKey.required, 'key'],
                    properties: { ...apiKey.properties, key: { type: 'string', description: 'Send as X-API-Key; shown once' } },
                  },
                },
              },
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            ...mutation,
          },
        },
      },
      '/api/admin/account/settings': {
        patch: {
          tags: ['admin'],
          summary: 'Change the account’s settings: how long a new session stays signed in',
          description:
            'session_ttl_hours applies to sessions issued from then on (login, two-factor login, password change); ' +
            'sessions already issued keep their expiry and are not ended. The current value is in POST /api/auth/me. ' +
            'Unknown fields, a missing field or a value out of range: 400 and nothing changes.',
          security: jwt,
          parameters: [csrfParam],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['session_ttl_hours'],
                  properties: {
                    session_ttl_hours: {
                      type: 'integer',
                      minimum: SESSION_TTL_HOURS.min,
                      maximum: SESSION_TTL_HOURS.max,
                      description: 'Validity of new sessions in hours (default 24; 720 = 30 days)',
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'The settings now in force',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['session_ttl_hours'],
                    properties: { session_ttl_hours: { type: 'integer' } },
                  },
                },
              },
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            ...mutation,
          },
        },
      },
      '/api/admin/api-keys/{id}': {
        delete: {
          tags: ['admin'],
          summary: 'Revoke an API key; it stops working at once on every gateway replica',
          security: jwt,
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, csrfParam],
          responses: { '204': { description: 'Revoked' }, '404': { $ref: '#/components/responses/NotFound' }, ...mutation },
        },
      },
    },
  };
}
