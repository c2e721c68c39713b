import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, type Response } from 'express';
import { callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';

/** The built pages (services/web/dist), same relative place from src/ and dist/. */
const WEB_DIST = fileURLToPath(new URL('../../../../../web/dist/', import.meta.url));

/**
 * The sender's dashboard: the page at /app (and every /app/* path, routed in the browser) and
 * GET /api/admin/account, the billing state with the checkout links from configuration. The account
 * route sits under /api/admin, so the admin guard (session JWT only) mounted by adminRoutes runs
 * before it; it must be mounted after adminRoutes.
 */
export function dashboardRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();

  r.get('/api/admin/account', async (_req, res) => {
    const a = await ctx.billing.getAccount({ userId: callerOf(res).userId });
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      plan: a.plan,
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
    });
  });

  const page = (res: Response) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
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

  return {
    router: r,
    openapi: {
      '/api/admin/account': {
        get: {
          tags: ['admin'],
          summary: 'The caller’s plan, this month’s usage, credits, past-due state and the checkout links',
          description: 'For the dashboard’s billing page. A checkout link is null when it is not configured.',
          security: [{ bearer: [] }],
          responses: {
            '200': {
              description: 'Account',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['plan', 'monthly_limit', 'monthly_used', 'signature_credits', 'past_due', 'checkout'],
                    properties: {
                      plan: { type: 'string', enum: ['Free', 'Pro', 'Firm'] },
                      monthly_limit: { type: 'integer' },
                      monthly_used: { type: 'integer' },
                      signature_credits: { type: 'integer' },
                      past_due: { type: 'boolean' },
                      past_due_since: { type: ['string', 'null'], format: 'date-time' },
                      grace_ends_at: {
                        type: ['string', 'null'],
                        format: 'date-time',
                        description: 'When a past-due account is downgraded',
                      },
                      checkout: {
                        type: 'object',
                        properties: {
                          pro: { type: ['string', 'null'], format: 'uri' },
                          firm: { type: ['string', 'null'], format: 'uri' },
                          credits: { type: ['string', 'null'], format: 'uri' },
                        },
                      },
                    },
                  },
                },
              },
            },
            '401': { $ref: '#/components/responses/Unauthorized' },
          },
        },
      },
    },
  };
}
