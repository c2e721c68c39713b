import { Router } from 'express';
import { z } from 'zod';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';

const PAGE_MAX = 100;

const size = (name: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `${name} must be a tree size (a non-negative integer)`)
    .transform(Number);

const historyQuery = z
  .object({
    from: size('from').optional().meta({ description: 'default 1' }),
    to: size('to').optional().meta({ description: 'default: the current size' }),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, `limit must be a number from 1 to ${PAGE_MAX}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= PAGE_MAX, `limit must be a number from 1 to ${PAGE_MAX}`)
      .optional()
      .meta({ description: `default ${PAGE_MAX}` }),
    log: z
      .enum(['live', 'test'], { error: 'log must be live or test' })
      .optional()
      .meta({ description: 'test: the test log (test-mode certificates); default live' }),
  })
  .refine((q) => q.from === undefined || q.from >= 1, { message: 'from must be at least 1', path: ['from'] })
  .refine((q) => q.to === undefined || q.to >= (q.from ?? 1), { message: 'to must not be smaller than from', path: ['to'] });

const historySchema = z
  .object({
    checkpoints: z.array(
      z.object({
        tree_size: z.int(),
        checkpoint: z.string().meta({ description: 'C2SP tlog-checkpoint as a signed note, with cosignatures' }),
        signed_at: z.string().meta({ format: 'date-time' }),
        cosignatures: z.int().meta({ description: 'witness cosignatures it carries' }),
      }),
    ),
    next_from: z.int().nullable(),
    log: z.enum(['live', 'test']).meta({ description: 'The log these checkpoints are of' }),
  })
  .meta({ id: 'CheckpointHistory' });

/**
 * GET /api/ledger/checkpoints: the log's checkpoint history — every signed checkpoint with a size in
 * [from, to], oldest first, each with the witness cosignatures stored with it, in pages. Lets anyone
 * check that the log never showed two histories (each checkpoint extends the one before it).
 */
export function ledgerCheckpointRoutes(ctx: GatewayContext): RouteModule {
  const history = defineRoute({
    method: 'get',
    path: '/api/ledger/checkpoints',
    operationId: 'listLedgerCheckpoints',
    summary: 'Every signed checkpoint of the certificate log in a range of sizes, with its witness cosignatures (paged)',
    description:
      'Oldest first. `next_from` (and a Link rel="next" header) gives the next page; null ends the range. Each checkpoint is a C2SP signed note: the log signature line, then the witnesses’ cosignature lines (c2sp.org/tlog-cosignature).',
    tags: ['Ledger'],
    security: 'public',
    query: historyQuery,
    responses: {
      200: {
        description: 'A page of checkpoints',
        body: historySchema,
        headers: {
          'Cache-Control': {
            description: 'public, max-age=60 for a closed range read to its end, else no-cache',
            schema: z.string(),
          },
          Link: HEADERS.link,
        },
      },
      ...errorResponses(400, 404),
    },
    async handle({ query: q }, _req, res) {
      const page = await ctx.ledger.listCheckpoints({
        fromSize: q.from ?? 1,
        toSize: q.to ?? 0,
        pageSize: q.limit ?? PAGE_MAX,
        log: q.log ?? 'live',
      });
      const next = page.nextFromSize || null;
      // A closed range never changes (checkpoints are immutable, cosignatures only added); the open end does.
      res.setHeader('Cache-Control', q.to !== undefined && next === null ? 'public, max-age=60' : 'no-cache');
      if (next !== null) {
        const nextUrl = new URLSearchParams({ from: String(next), ...(q.to !== undefined ? { to: String(q.to) } : {}) });
        if (q.limit) nextUrl.set('limit', String(q.limit));
        if (q.log) nextUrl.set('log', q.log);
        res.setHeader('Link', `</api/ledger/checkpoints?${nextUrl}>; rel="next"`);
      }
      return {
        status: 200 as const,
        body: {
          checkpoints: page.checkpoints.map((c) => ({
            tree_size: c.treeSize,
            checkpoint: c.checkpoint,
            signed_at: c.signedAt,
            cosignatures: c.cosignatures,
          })),
          next_from: next,
          log: q.log ?? 'live',
        },
      };
    },
  });
  const routes = [history];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
