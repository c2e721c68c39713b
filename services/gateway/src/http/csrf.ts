import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { callerOf } from './auth.js';
import type { Caller, GatewayContext } from './context.js';
import { HttpError } from './errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const key = (ctx: GatewayContext, sessionId: string) => `${ctx.cfg.REDIS_KEY_PREFIX}csrf:${sessionId}`;

/**
 * The CSRF token of a session: random, kept in Redis under the session id (so it is bound to that
 * session and shared by every replica), created on first request and returned unchanged after, for
 * as long as the session lives.
 */
export async function csrfTokenFor(ctx: GatewayContext, caller: Caller): Promise<string> {
  if (caller.method !== 'session' || !caller.sessionId) throw new HttpError(401, 'a session is required for a CSRF token');
  const k = key(ctx, caller.sessionId);
  const ttl = Math.max(60, (caller.expiresAt ?? 0) - Math.floor(Date.now() / 1000));
  await ctx.redis.set(k, randomBytes(32).toString('base64url'), 'EX', ttl, 'NX');
  const token = await ctx.redis.get(k);
  if (!token) throw new HttpError(503, 'CSRF token store unavailable; retry shortly', 5);
  return token;
}

/** Middleware after requireCaller: mutations need `?csrf=<token of this session>`, else 403. */
export function requireCsrf(ctx: GatewayContext) {
  const rejected = ctx.metrics.counter(
    'signet_gateway_csrf_rejected_total',
    'Admin mutations refused for a missing or wrong CSRF token',
  );
  return async (req: Request, res: Response, next: NextFunction) => {
    if (SAFE.has(req.method)) return next();
    const caller = callerOf(res);
    const given = typeof req.query.csrf === 'string' ? req.query.csrf : '';
    const stored = caller.sessionId ? await ctx.redis.get(key(ctx, caller.sessionId)) : null;
    const ok = !!given && !!stored && given.length === stored.length && timingSafeEqual(Buffer.from(given), Buffer.from(stored));
    if (!ok) {
      rejected.inc();
      throw new HttpError(403, 'csrf query parameter missing or invalid; get one from GET /api/admin/csrf');
    }
    next();
  };
}
