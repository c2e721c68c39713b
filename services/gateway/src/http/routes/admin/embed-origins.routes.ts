import { Router } from 'express';
import { z } from 'zod';
import { EMBED_ORIGINS_MAX, embedOriginProblem } from '@signet/kit';
import { callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { auditCall } from '../auth/client-info.js';

const origin = z
  .string()
  .superRefine((v, c) => {
    const problem = embedOriginProblem(v);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: 'scheme://host[:port] exactly as a browser writes an origin', example: 'https://app.example.com' });
const origins = z
  .array(origin)
  .max(EMBED_ORIGINS_MAX, `at most ${EMBED_ORIGINS_MAX}`)
  .meta({
    description:
      `Origins that may frame this account's signing pages, at most ${EMBED_ORIGINS_MAX}: https, or http only on ` +
      'localhost, 127.0.0.1 and [::1] (development). Empty: the pages may not be framed.',
  });
const body = z.strictObject({ origins });
const answer = z.object({ origins: z.array(z.string()) }).meta({ id: 'EmbedOrigins' });
const csrfQuery = z.object({ csrf: z.string().meta({ description: 'Token from GET /api/admin/csrf' }) });

/**
 * Embedded signing (issue 34 item 6): the origins that may frame the account's signing pages. The
 * signing page's `frame-ancestors` is this list and nothing else, and the page posts its events
 * (ready, consented, recorded, submitted, verified, failed, declined) to these origins only.
 * Mounted after adminRoutes, whose /api/admin guard (session only, CSRF on mutations) covers it.
 */
export function embedOriginsRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  const common = { tags: ['Dashboard'], security: 'session' as const };
  const noStore = { 'Cache-Control': HEADERS.cacheControl };

  const get = defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/account/embed-origins',
    operationId: 'getEmbedOrigins',
    summary: 'The origins that may frame this account’s signing pages (embedded signing)',
    responses: { 200: { description: 'The allowed origins', body: answer, headers: noStore }, ...errorResponses(401) },
    async handle(_input, _req, res) {
      const p = await ctx.identity.getProfile({ userId: callerOf(res).ownerId });
      return { status: 200 as const, body: { origins: p.embedOrigins } };
    },
  });

  const put = defineRoute({
    ...common,
    method: 'put',
    path: '/api/admin/account/embed-origins',
    operationId: 'setEmbedOrigins',
    role: 'admin',
    summary: 'Replace the origins that may frame this account’s signing pages (embedded signing)',
    description:
      'The signing page of every link of this account (sent before or after) sends frame-ancestors with exactly ' +
      'these origins, and posts its events to them only. A bad origin: 400 naming it, nothing changes. ' +
      'Duplicates are dropped.',
    query: csrfQuery,
    body,
    responses: {
      200: { description: 'The origins now allowed', body: answer, headers: noStore },
      ...errorResponses(400, 401),
      403: { ...errorResponses(403)[403]!, description: 'csrf query parameter missing or invalid' },
    },
    async handle({ body: b }, req, res) {
      const p = await ctx.identity.setEmbedOrigins(
        { userId: callerOf(res).ownerId, origins: b.origins },
        auditCall(req, callerOf(res).userId),
      );
      return { status: 200 as const, body: { origins: p.embedOrigins } };
    },
  });

  const routes = [get, put];
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}
