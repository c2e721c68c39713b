import type { RequestHandler } from 'express';

/**
 * Headers every answer carries, set before any route runs (so errors, 404s, the ops routes and the
 * pages have them too):
 * - `X-Content-Type-Options: nosniff`: a browser never guesses a type the answer did not declare (a
 *   JSON error or a CSV export rendered as HTML).
 * - `Strict-Transport-Security` when the request reached us over HTTPS as a trusted proxy reports it
 *   (Express's `req.secure`: X-Forwarded-Proto believed only from TRUSTED_PROXIES). A plain-HTTP
 *   request, or one whose X-Forwarded-Proto came from anyone else, gets none — HSTS sent over HTTP is
 *   ignored by browsers, and a forged header must not pin anything. HSTS_MAX_AGE_SECONDS 0 turns it off.
 */
export function securityHeaders(o: { hstsMaxAgeSeconds: number; hstsIncludeSubdomains: boolean }): RequestHandler {
  const hsts = `max-age=${o.hstsMaxAgeSeconds}${o.hstsIncludeSubdomains ? '; includeSubDomains' : ''}`;
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (o.hstsMaxAgeSeconds > 0 && req.secure) res.setHeader('Strict-Transport-Security', hsts);
    next();
  };
}
