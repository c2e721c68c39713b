import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import express, { type Response, type Router } from 'express';
import { status } from '@grpc/grpc-js';
import { frameAncestors, RpcError } from '@signet/kit';
import type { GatewayContext } from '../../context.js';
import { WEB_DIST } from '../../web-dist.js';
import { TOKEN } from './sign.schemas.js';

const policy = (ancestors: string) =>
  `default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; worker-src 'self'; object-src 'none'; frame-ancestors ${ancestors}; base-uri 'none'`;

/**
 * The signing page at /sign/{token} and its assets. Its token stays out of Referer headers and the
 * page is never cached. It may be framed only by the origins its sender's account allows (embedded
 * signing, issue 34 item 6): `frame-ancestors` is that list and nothing else ('none' when it is
 * empty, the link does not resolve or identity does not answer), and the same list is given to the
 * page in `<meta name="signet-embed-origins">`, the only targets of its postMessage events.
 */
export function addSignPage(router: Router, ctx: GatewayContext): void {
  const served = ctx.metrics.counter(
    'signet_gateway_sign_page_served_total',
    'Signing pages served, by whether the browser asked for a frame (Sec-Fetch-Dest: iframe) and whether the account allows embedding',
    ['framed', 'embedding'],
  );
  const pageHeaders = (res: Response, origins: string[]) => {
    res.setHeader('Content-Security-Policy', policy(frameAncestors(origins)));
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader(
      'Permissions-Policy',
      'camera=(self), microphone=(self), publickey-credentials-get=(self), publickey-credentials-create=(self)',
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
  };
  router.use('/assets', express.static(`${WEB_DIST}assets`, { immutable: true, maxAge: '365d', index: false }), (_req, res) => {
    res.status(404).type('text/plain').send('not found');
  });
  router.get('/sign/:token', async (req, res) => {
    const { origins, locale, brand } = await pageContextOf(ctx, String(req.params.token));
    served.inc({ framed: req.get('sec-fetch-dest') === 'iframe' ? 'yes' : 'no', embedding: origins.length ? 'allowed' : 'none' });
    pageHeaders(res, origins);
    res.setHeader('Cache-Control', 'no-store');
    const page = `${WEB_DIST}sign.html`;
    if (!existsSync(page)) {
      res.status(503).type('text/plain').send('The signing page has not been built (pnpm --filter @signet/web build).');
      return;
    }
    res.type('html').send(withBrand(withLocale(withEmbedOrigins(await readFile(page, 'utf8'), origins), locale), brand));
  });
}

type PageContext = { origins: string[]; locale: string; brand?: PageBrand };
/** The organisation's branding as the page shows it (issue 34 item 4). */
export type PageBrand = { name: string; color: string; logo: string };

/**
 * What the page is given about its link: the embedding origins of the account that sent it, and the
 * language the sender chose for the signer (issue 34 item 5); none of either when it does not resolve.
 */
async function pageContextOf(ctx: GatewayContext, token: string): Promise<PageContext> {
  if (!TOKEN.test(token)) return { origins: [], locale: '' };
  let locale = '';
  try {
    const link = await ctx.transaction.resolveSigningToken({ token });
    locale = link.locale;
    if (!link.ownerId) return { origins: [], locale };
    const [profile, brand] = await Promise.all([ctx.identity.getProfile({ userId: link.ownerId }), brandOf(ctx, link.ownerId)]);
    return { origins: profile.embedOrigins, locale, brand };
  } catch (err) {
    // NOT_FOUND is a link that ended or never was: the page says so itself. Anything else fails closed.
    if (!(err instanceof RpcError && err.code === status.NOT_FOUND))
      ctx.logger.warn({ err: (err as Error).message }, 'sign page: embedding origins unavailable');
    return { origins: [], locale };
  }
}

/** The branding of the link's organisation; none when identity does not answer (the page is Signet's own then). */
async function brandOf(ctx: GatewayContext, orgId: string): Promise<PageBrand | undefined> {
  try {
    const b = await ctx.branding?.getBranding({ orgId });
    if (!b) return undefined;
    return { name: b.displayName, color: b.color, logo: b.logoSha256 ? `/api/branding/logos/${b.logoSha256}` : '' };
  } catch (err) {
    ctx.logger.warn({ err: (err as Error).message }, 'sign page: branding unavailable');
    return undefined;
  }
}

const attr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page with the organisation's branding in meta tags (escaped; the page applies them by script: its CSP allows no inline style). */
export function withBrand(html: string, brand: PageBrand | undefined): string {
  if (!brand) return html;
  const color = /^#[0-9a-f]{6}$/.test(brand.color) ? brand.color : '';
  const logo = /^\/api\/branding\/logos\/[0-9a-f]{64}$/.test(brand.logo) ? brand.logo : '';
  const tags = [
    brand.name ? `<meta name="signet-brand-name" content="${attr(brand.name)}">` : '',
    color ? `<meta name="signet-brand-color" content="${color}">` : '',
    logo ? `<meta name="signet-brand-logo" content="${logo}">` : '',
  ].filter(Boolean);
  return tags.length ? html.replace('</head>', `${tags.join('\n')}\n</head>`) : html;
}

/** The page with the signer's language as the sender chose it (a checked code: letters only). */
export function withLocale(html: string, locale: string): string {
  if (!/^[a-z]{2}$/.test(locale)) return html;
  return html.replace('</head>', `<meta name="signet-locale" content="${locale}">\n</head>`);
}

/** The page with its embedding origins (checked origins: no character that needs escaping in an attribute). */
export function withEmbedOrigins(html: string, origins: string[]): string {
  const safe = origins.filter((o) => /^https?:\/\/[a-z0-9.:[\]-]+$/.test(o));
  return html.replace('</head>', `<meta name="signet-embed-origins" content="${safe.join(' ')}">\n</head>`);
}
