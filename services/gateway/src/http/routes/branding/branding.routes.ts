import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { identityBrandingV1 } from '@signet/proto';
import { callerOf } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { auditCall } from '../auth/client-info.js';

/** What identity refuses beyond these shapes: the contrast, the logo's content (domain/branding.ts). */
const MAX_LOGO_BYTES = 512 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg'];

const brandingBody = z
  .strictObject({
    display_name: z.string().max(100, 'display_name: at most 100 characters').default('').meta({
      description: 'Shown to signers instead of the organisation’s name (signing page, mails); empty: the organisation’s name',
    }),
    color: z
      .string()
      .max(7)
      .default('')
      .meta({
        description:
          'Primary colour #rrggbb of the signing page’s header and buttons and of the mails’ header and button. White text on it must reach ' +
          'WCAG AA 4.5:1, else 400 naming the contrast and a darker colour that passes. Empty: Signet’s own',
        example: '#0b5cad',
      }),
    reply_to: z.string().max(254).default('').meta({ description: 'Reply-To of every mail to signers; empty: none' }),
  })
  .meta({ id: 'BrandingInput' });

export const brandingSchema = z
  .object({
    display_name: z.string(),
    color: z.string().meta({ description: '#rrggbb, or empty' }),
    reply_to: z.string(),
    logo_url: z.string().nullable().meta({ description: 'Public URL of the logo (PNG, re-encoded by Signet); null: no logo' }),
    logo_width: z.int(),
    logo_height: z.int(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'Branding' });

const csrfQuery = z.object({ csrf: z.string().meta({ description: 'Token from GET /api/admin/csrf' }) });
const logoParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const logoPath = (sha256: string) => `/api/branding/logos/${sha256}`;

function brandingOut(b: identityBrandingV1.Branding): z.input<typeof brandingSchema> {
  return {
    display_name: b.displayName,
    color: b.color,
    reply_to: b.replyTo,
    logo_url: b.logoSha256 ? logoPath(b.logoSha256) : null,
    logo_width: b.logoWidth,
    logo_height: b.logoHeight,
    updated_at: b.updatedAt || null,
  };
}

/**
 * An organisation's branding (issue 34 item 4): display name, colour, Reply-To and logo, shown on
 * the signing page and in every mail to its signers. Dashboard sessions only (mounted after
 * adminRoutes, whose /api/admin guard checks the session and the CSRF token of changes). The logo is
 * its own request (the image as the body); it is public once set, at a URL naming its SHA-256.
 */
export function brandingRoutes(ctx: GatewayContext): RouteModule {
  const r = Router();
  const routes = [getRoute(ctx), putRoute(ctx), putLogoRoute(ctx), deleteLogoRoute(ctx), logoRoute(ctx)];
  mountRoutes(r, routes, { validateResponses: ctx.validateResponses });
  return { router: r, routes };
}

const common = { tags: ['Dashboard'], security: 'session' as const };
const noStore = { 'Cache-Control': HEADERS.cacheControl };
const answers = { 200: { description: 'The branding now', body: brandingSchema, headers: noStore } };

function client(ctx: GatewayContext) {
  if (!ctx.branding) throw new HttpError(503, 'branding is unavailable');
  return ctx.branding;
}

const ok = (b: identityBrandingV1.Branding) => ({
  status: 200 as const,
  body: brandingOut(b),
  headers: { 'Cache-Control': 'no-store' },
});

/** Applies a change to the caller's organisation's branding; the member making it is recorded in the event. */
async function setBranding(
  ctx: GatewayContext,
  req: Request,
  res: Response,
  change: Partial<identityBrandingV1.SetBrandingRequest>,
) {
  const { ownerId, userId } = callerOf(res);
  const now = await client(ctx).getBranding({ orgId: ownerId });
  return client(ctx).setBranding(
    {
      orgId: ownerId,
      actorId: userId,
      displayName: now.displayName,
      color: now.color,
      replyTo: now.replyTo,
      logoChange: identityBrandingV1.LogoChange.LOGO_CHANGE_UNSPECIFIED,
      logo: Buffer.alloc(0),
      ...change,
    },
    auditCall(req),
  );
}

function getRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/admin/account/branding',
    operationId: 'getBranding',
    summary: 'The organisation’s branding (signing page and mails to signers)',
    responses: { ...answers, ...errorResponses(401) },
    handle: async (_i, _req, res) => ok(await client(ctx).getBranding({ orgId: callerOf(res).ownerId })),
  });
}

function putRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'put',
    path: '/api/admin/account/branding',
    operationId: 'setBranding',
    role: 'admin' as const,
    summary: 'Replace the display name, colour and Reply-To (the logo stays)',
    description:
      'A bad part is a 400 naming it and nothing changes: a colour white text cannot be read on (WCAG AA 4.5:1; the answer names the ' +
      'contrast and a darker colour that passes), a Reply-To that is not an email address, a display name with control characters.',
    query: csrfQuery,
    body: brandingBody,
    responses: { ...answers, ...errorResponses(400, 401, 403) },
    handle: async ({ body: b }, req, res) =>
      ok(await setBranding(ctx, req, res, { displayName: b.display_name, color: b.color, replyTo: b.reply_to })),
  });
}

function putLogoRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'put',
    path: '/api/admin/account/branding/logo',
    operationId: 'setBrandingLogo',
    role: 'admin' as const,
    summary: 'Set the logo: a PNG or JPEG as the request body (SVG is refused)',
    description:
      `At most ${MAX_LOGO_BYTES / 1024} KB and 1024×1024 pixels (at least 16×16). Decoded and re-encoded as PNG, so nothing but the ` +
      'pixels is kept. Another type (SVG included), an image that does not decode or is out of bounds: 400, nothing changes.',
    query: csrfQuery,
    use: [express.raw({ type: () => true, limit: MAX_LOGO_BYTES })],
    rawBody: {
      content: Object.fromEntries(LOGO_TYPES.map((t) => [t, z.string().meta({ format: 'binary', description: 'The logo' })])),
    },
    responses: { ...answers, ...errorResponses(400, 401, 403, 413, 415) },
    async handle(_i, req, res) {
      const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!LOGO_TYPES.includes(type))
        throw new HttpError(
          415,
          `logo: send a PNG or JPEG with Content-Type image/png or image/jpeg${type === 'image/svg+xml' ? ' (SVG is not accepted)' : ''}`,
        );
      if (!Buffer.isBuffer(req.body) || req.body.length === 0)
        throw new HttpError(400, 'logo: the image is the request body; it was empty');
      return ok(await setBranding(ctx, req, res, { logoChange: identityBrandingV1.LogoChange.LOGO_CHANGE_SET, logo: req.body }));
    },
  });
}

function deleteLogoRoute(ctx: GatewayContext) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/admin/account/branding/logo',
    operationId: 'deleteBrandingLogo',
    role: 'admin' as const,
    summary: 'Remove the logo',
    query: csrfQuery,
    responses: { ...answers, ...errorResponses(401, 403) },
    handle: async (_i, req, res) =>
      ok(await setBranding(ctx, req, res, { logoChange: identityBrandingV1.LogoChange.LOGO_CHANGE_REMOVE })),
  });
}

/** The logo is public once set, at a URL naming its SHA-256 (the signing page and mails link it). */
function logoRoute(ctx: GatewayContext) {
  return defineRoute({
    method: 'get',
    path: '/api/branding/logos/{sha256}',
    operationId: 'getBrandingLogo',
    summary: 'An organisation’s logo, by the SHA-256 of its PNG (as the signing page and mails link it)',
    tags: ['Signing'],
    security: 'public',
    params: logoParams,
    invalidParams: () => new HttpError(404, 'no such logo'),
    responses: {
      200: { description: 'The logo', content: { 'image/png': z.string().meta({ format: 'binary' }) } },
      ...errorResponses(404),
    },
    async handle({ params }, _req, res) {
      const { png } = await client(ctx).getBrandLogo({ sha256: params.sha256 });
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.end(Buffer.from(png));
      return undefined;
    },
  });
}
