import { existsSync } from 'node:fs';
import express, { type Response, type Router } from 'express';
import { WEB_DIST } from '../../web-dist.js';

/** The signing page at /sign/{token} and its assets. Its token stays out of Referer headers and the page is never cached. */
export function addSignPage(router: Router): void {
  const pageHeaders = (res: Response) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
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
  router.get('/sign/:token', (req, res) => {
    pageHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
    const page = `${WEB_DIST}sign.html`;
    if (!existsSync(page)) {
      res.status(503).type('text/plain').send('The signing page has not been built (pnpm --filter @signet/web build).');
      return;
    }
    res.sendFile(page);
  });
}
