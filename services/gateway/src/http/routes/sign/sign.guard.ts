import type { NextFunction, Request, Response } from 'express';
import type { GatewayContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { rateLimitCheck, SIGN_LIMITS } from '../../rate-limit.js';
import { HEADERS } from '../../route.js';
import { TOKEN } from './sign.schemas.js';

export type SignGuard = ReturnType<typeof signGuard>;

export const SIGN_TAGS = ['Signing ceremony'];
/** A token that does not validate cannot be a link we sent. */
export const notValidLink = () => new HttpError(404, 'this signing link is not valid');
/** Every signing-route answer says no-store (sign.routes.ts). */
export const noStore = { 'Cache-Control': HEADERS.cacheControl };

/**
 * What every ceremony route shares: the guard (the IP limit — malformed tokens count too — a
 * well-formed token, then the token limit), the capture limit, and the token and user agent of a request.
 * The limits are rows of the gateway's one table (rate-limit.ts; docs/decisions.md "Ceremony rate limits").
 */
export function signGuard(ctx: GatewayContext) {
  const limits = {
    ip: rateLimitCheck(ctx, SIGN_LIMITS.ip),
    token: rateLimitCheck(ctx, SIGN_LIMITS.token),
    capture: rateLimitCheck(ctx, SIGN_LIMITS.capture),
  };
  const guard = async (req: Request, _res: Response, next: NextFunction) => {
    await limits.ip(req);
    if (!TOKEN.test(String(req.params.token))) throw new HttpError(404, 'this signing link is not valid');
    await limits.token(req);
    next();
  };
  return {
    guard,
    limits,
    tokenOf: (req: Request) => String(req.params.token),
    ua: (req: Request) => String(req.headers['user-agent'] ?? '').slice(0, 512),
  };
}
