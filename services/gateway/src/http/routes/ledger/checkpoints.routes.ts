import { Router } from 'express';
import { z } from 'zod';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest } from '../../errors.js';

const PAGE_MAX = 100;

const size = (name: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `${name} must be a tree size (a non-negative integer)`)
    .transform(Number);

const historyQuery = z
  .object({
    from: size('from').optional(),
    to: size('to').optional(),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, `limit must be a number from 1 to ${PAGE_MAX}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= PAGE_MAX, `limit must be a number from 1 to ${PAGE_MAX}`)
      .optional(),
    log: z.enum(['live', 'test']).optional(),
  })
  .refine((q) => q.from === undefined || q.from >= 1, { message: 'from must be at least 1', path: ['from'] })
  .refine((q) => q.to === undefined || q.to >= (q.from ?? 1), { message: 'to must not be smaller than from', path: ['to'] });

/**
 * GET /api/ledger/checkpoints: the log's checkpoint history — every signed checkpoint with a size in
 * [from, to], oldest first, each with the witness cosignatures stored with it, in pages. Lets anyone
 * check that the log never showed two histories (each checkpoint extends the one before it).
 */
export function ledgerCheckpointRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();

  router.get('/api/ledger/checkpoints', async (req, res) => {
    const r = historyQuery.safeParse(req.query);
    if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'invalid query');
    const q = r.data;
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
    res.json({
      checkpoints: page.checkpoints.map((c) => ({
        tree_size: c.treeSize,
        checkpoint: c.checkpoint,
        signed_at: c.signedAt,
        cosignatures: c.cosignatures,
      })),
      next_from: next,
      log: q.log ?? 'live',
    });
  });

  return {
    router,
    openapi: {
      '/api/ledger/checkpoints': {
        get: {
          summary: 'Every signed checkpoint of the certificate log in a range of sizes, with its witness cosignatures (paged)',
          description:
            'Oldest first. `next_from` (and a Link rel="next" header) gives the next page; null ends the range. Each checkpoint is a C2SP signed note: the log signature line, then the witnesses’ cosignature lines (c2sp.org/tlog-cosignature).',
          security: [],
          parameters: [
            { name: 'from', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'default 1' },
            {
              name: 'to',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1 },
              description: 'default: the current size',
            },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX },
              description: `default ${PAGE_MAX}`,
            },
            {
              name: 'log',
              in: 'query',
              required: false,
              schema: { type: 'string', enum: ['live', 'test'] },
              description: 'test: the test log (test-mode certificates); default live',
            },
          ],
          responses: {
            '200': {
              description: 'A page of checkpoints',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['checkpoints', 'next_from', 'log'],
                    properties: {
                      checkpoints: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: ['tree_size', 'checkpoint', 'signed_at', 'cosignatures'],
                          properties: {
                            tree_size: { type: 'integer' },
                            checkpoint: {
                              type: 'string',
                              description: 'C2SP tlog-checkpoint as a signed note, with cosignatures',
                            },
                            signed_at: { type: 'string', format: 'date-time' },
                            cosignatures: { type: 'integer', description: 'witness cosignatures it carries' },
                          },
                        },
                      },
                      next_from: { type: ['integer', 'null'] },
                      log: { type: 'string', enum: ['live', 'test'], description: 'The log these checkpoints are of' },
                    },
                  },
                },
              },
            },
            '400': { $ref: '#/components/responses/BadRequest' },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
    },
  };
}
