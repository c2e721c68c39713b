import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { identitySecurityV1 } from '@signet/proto';
import { callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { csvRow } from '../transactions/csv.js';
import { recordAudit } from './audit-record.js';

const time = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 time' });
const filters = {
  actor_id: z.string().max(64).optional().meta({ description: 'Only entries of this actor (a user id)' }),
  action: z
    .string()
    .max(100)
    .regex(/^[a-z_.]+$/, 'must be an action name or a prefix ending in "."')
    .optional()
    .meta({ description: 'An action (auth.login.failed) or a prefix ending in "." (auth.)' }),
  from: time.optional().meta({ description: 'Entries at or after this time' }),
  to: time.optional().meta({ description: 'Entries before this time' }),
};
const listQuery = z.strictObject({
  ...filters,
  limit: z.coerce.number().int().min(1).max(500).optional().meta({ description: 'Entries per page, 1-500 (default 50)' }),
  cursor: z.string().max(200).optional().meta({ description: 'next_cursor of the previous page' }),
});
const exportQuery = z.strictObject({ ...filters, format: z.enum(['csv', 'json']).default('csv') });
const entry = z
  .object({
    id: z.string(),
    at: z.string().meta({ format: 'date-time' }),
    action: z.string(),
    actor_id: z.string(),
    actor_email: z.string(),
    target: z.string(),
    ip: z.string(),
    user_agent: z.string(),
    details: z.record(z.string(), z.string()),
  })
  .meta({ id: 'AuditEvent' });
const page = z.object({ events: z.array(entry), next_cursor: z.string().nullable() }).meta({ id: 'AuditEventPage' });

const out = (e: identitySecurityV1.AuditEvent): z.infer<typeof entry> => ({
  id: e.id,
  at: e.at,
  action: e.action,
  actor_id: e.actorId,
  actor_email: e.actorEmail,
  target: e.target,
  ip: e.ip,
  user_agent: e.userAgent,
  details: e.details,
});
const CSV_HEAD = ['id', 'at', 'action', 'actor_id', 'actor_email', 'target', 'ip', 'user_agent', 'details'];
const csvOf = (e: z.infer<typeof entry>) =>
  csvRow([e.id, e.at, e.action, e.actor_id, e.actor_email, e.target, e.ip, e.user_agent, JSON.stringify(e.details)]);

async function write(res: Response, chunk: string) {
  if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
}

/**
 * The account audit log (issue 34 item 3; the actions are listed in docs/account-audit-log.md):
 * sign-ins and their failures, passkeys and recovery codes, API keys, members and invitations,
 * settings, embedding origins and branding, deletions and exports, newest first. Mounted after
 * adminRoutes, whose /api/admin guard (a dashboard session) covers it; identity refuses members below
 * admin. An export is itself recorded (audit_log.exported) before its first byte.
 */
export function auditLogRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  const routes = [listRoute(ctx), exportRoute(ctx)];
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}

// Owners and admins read the log (identity checks the member's role again).
const common = { tags: ['Dashboard'], security: 'session' as const, role: 'admin' as const };
const noStore = { 'Cache-Control': HEADERS.cacheControl };
const query = (userId: string, q: z.infer<typeof listQuery>, limit: number, cursor = '') => ({
  userId,
  actorId: q.actor_id ?? '',
  action: q.action ?? '',
  from: q.from ?? '',
  to: q.to ?? '',
  limit,
  cursor,
});

/** GET /api/admin/audit-log */
function listRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/audit-log',
    operationId: 'listAuditLog',
    summary: 'The account’s audit log, newest first, filtered and paged',
    description:
      'Filter by actor, action (or action prefix) and time range; follow next_cursor for older entries (null on the last page). ' +
      'Entries are never changed; they are deleted after the retention in docs/privacy.md.',
    query: listQuery,
    responses: { 200: { description: 'A page of entries', body: page, headers: noStore }, ...errorResponses(400, 401) },
    async handle({ query: q }, _req, res) {
      const p = await ctx.security.listAuditEvents(query(callerOf(res).userId, q, q.limit ?? 50, q.cursor));
      return { status: 200 as const, body: { events: p.events.map(out), next_cursor: p.nextCursor || null } };
    },
  });
}

/** GET /api/admin/audit-log/export */
function exportRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/audit-log/export',
    operationId: 'exportAuditLog',
    summary: 'The whole filtered audit log as CSV or JSON, streamed',
    description:
      'Same filters as the list. CSV (RFC 4180; details as a JSON cell) or a JSON array, newest first. ' +
      'The export itself is recorded in the log (audit_log.exported, with the format and filters) before the first byte.',
    query: exportQuery,
    responses: {
      200: {
        description: 'The entries',
        content: { 'text/csv': z.string(), 'application/json': z.array(entry) },
        headers: {
          ...noStore,
          'Content-Disposition': { description: 'attachment; filename="audit-log.csv|json"', schema: z.string() },
        },
      },
      ...errorResponses(400, 401),
    },
    async handle({ query: q }, req, res) {
      const userId = callerOf(res).userId;
      // The first page before any byte: a refusal is still an error answer.
      const p = await ctx.security.listAuditEvents(query(userId, { ...q }, 500));
      const filtersUsed = Object.entries({ actor_id: q.actor_id, action: q.action, from: q.from, to: q.to }).filter(
        ([, v]) => !!v,
      );
      await recordAudit(ctx, req, res, 'audit_log.exported', '', { format: q.format, ...Object.fromEntries(filtersUsed) });
      await streamExport(ctx, req, res, q.format, p, (cursor) =>
        ctx.security.listAuditEvents(query(userId, { ...q }, 500, cursor)),
      );
      return undefined;
    },
  });
}

type AuditPage = Awaited<ReturnType<GatewayContext['security']['listAuditEvents']>>;

/** Streams the export from its first page on, following the cursor until the last page or the client goes. */
async function streamExport(
  ctx: GatewayContext,
  req: Request,
  res: Response,
  format: 'csv' | 'json',
  firstPage: AuditPage,
  next: (cursor: string) => Promise<AuditPage>,
): Promise<void> {
  // (the client may have gone while the first page was read and the export recorded)
  let closed = req.destroyed;
  req.on('close', () => (closed = true));
  let p = firstPage;
  const csv = format === 'csv';
  res.status(200);
  res.setHeader('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="audit-log.${format}"`);
  res.setHeader('Cache-Control', 'no-store');
  let first = true;
  try {
    await write(res, csv ? csvRow(CSV_HEAD) : '[');
    for (;;) {
      for (const e of p.events.map(out)) {
        await write(res, csv ? csvOf(e) : `${first ? '' : ','}\n${JSON.stringify(e)}`);
        first = false;
      }
      if (!p.nextCursor || closed) break;
      p = await next(p.nextCursor);
    }
    if (!csv) await write(res, '\n]\n');
  } catch (err) {
    ctx.logger.warn({ err: { message: (err as Error).message } }, 'audit log export stopped midway');
    res.destroy();
    return undefined;
  }
  res.end();
}
