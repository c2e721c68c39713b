import type { NextFunction, Request, Response } from 'express';
import { RpcError } from '@signet/kit';
import type { Caller, GatewayContext } from './context.js';
import { HttpError } from './errors.js';

/**
 * Authenticates X-API-Key or Authorization: Bearer <JWT> through the identity service and puts the
 * caller on res.locals.caller. Missing or invalid credentials → 401.
 */
export function requireCaller(ctx: GatewayContext, opts: { allowApiKey?: boolean } = {}) {
  const allowApiKey = opts.allowApiKey ?? true;
  return async (req: Request, res: Response, next: NextFunction) => {
    const apiKey = req.get('x-api-key');
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (apiKey && !allowApiKey) throw new HttpError(401, 'API keys are not accepted here; sign in');
    if (!apiKey && !bearer) throw new HttpError(401, 'authentication required: X-API-Key or Authorization: Bearer <token>');
    try {
      const r = await ctx.identity.authenticate({
        credential: apiKey ? { $case: 'apiKey', value: apiKey } : { $case: 'sessionToken', value: bearer! },
      });
      const caller: Caller = {
        userId: r.userId,
        email: r.email,
        orgName: r.orgName,
        method: r.method === 'api_key' ? 'api_key' : 'session',
        sessionId: r.sessionId,
      };
      res.locals.caller = caller;
    } catch (err) {
      if (err instanceof RpcError && err.reason === 'UNAUTHENTICATED') throw new HttpError(401, 'invalid or expired credentials');
      throw err;
    }
    next();
  };
}

export function callerOf(res: Response): Caller {
  const c = res.locals.caller as Caller | undefined;
  if (!c) throw new HttpError(401, 'authentication required');
  return c;
}
