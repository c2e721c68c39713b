import { existsSync } from 'node:fs';
import { Router, type Response } from 'express';
import { z } from 'zod';
import { callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { WEB_DIST } from '../../web-dist.js';

const nullableTime = z.string().nullable().meta({ format: 'date-time' });
const link = z.string().nullable().meta({ format: 'uri' });
const accountSchema = z
  .object({
    plan: z.enum(['Free', 'Pro', 'Firm']),
    monthly_limit: z.int(),
    monthly_used: z.int(),
    signature_credits: z.int(),
    past_due: z.boolean(),
    past_due_since: nullableTime,
    grace_ends_at: nullableTime.meta({ description: 'When a past-due account is downgraded' }),
    checkout: z.object({ pro: link, firm: link, credits: link }),
  })
  .meta({ id: 'Account' });

/**
 * The sender's dashboard: the page at /app (and every /app/* path, routed in the browser) and
 * GET /api/admin/account, the billing state with the checkout links from configuration. The account
 * route sits under /api/admin, so the admin guard (session JWT only) mounted by adminRoutes runs
 * before it; it must be mounted after adminRoutes.
 */
export function dashboardRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();

  const account = defineRoute({
    method: 'get',
    path: '/api/admin/account',
    operationId: 'getAccount',
    summary: 'The caller’s plan, this month’s usage, credits, past-due state and the checkout links',
    description: 'For the dashboard’s billing page (session JWT only). A checkout link is null when it is not configured.',
    tags: ['Dashboard'],
    security: 'session',
    responses: {
      200: { description: 'The account', body: accountSchema, headers: { 'Cache-Control': HEADERS.cacheControl } },
      ...errorResponses(401),
    },
    async handle(_input, _req, res) {
      const a = await ctx.billing.getAccount({ userId: callerOf(res).ownerId });
      res.setHeader('Cache-Control', 'no-store');
      return {
        status: 200 as const,
        body: {
          plan: a.plan as z.input<typeof accountSchema>['plan'],
          monthly_limit: a.monthlyLimit,
          monthly_used: a.monthlyUsed,
          signature_credits: a.signatureCredits,
          past_due: a.pastDue,
          past_due_since: a.pastDueSince || null,
          grace_ends_at: a.downgradeAt || null,
          checkout: {
            pro: ctx.cfg.CHECKOUT_URL_PRO ?? null,
            firm: ctx.cfg.CHECKOUT_URL_FIRM ?? null,
            credits: ctx.cfg.CHECKOUT_URL_CREDITS ?? null,
          },
        },
      };
    },
  });
  mountRoutes(r, [account], { validateResponses: ctx.validateResponses });

  const page = (res: Response) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; worker-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-cache');
    const file = `${WEB_DIST}dashboard.html`;
    if (!existsSync(file)) {
      res.status(503).type('text/plain').send('The dashboard has not been built (pnpm --filter @signet/web build).');
      return;
    }
    res.sendFile(file);
  };
  r.get('/', (_req, res) => res.redirect(302, '/app'));
  r.get(['/app', '/app/*rest'], (_req, res) => page(res));

  return { router: r, routes: [account] };
}
