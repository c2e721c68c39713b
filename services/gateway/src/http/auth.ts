import { createHash, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { RpcError } from '@signet/kit';
import { ROLES, type Caller, type GatewayContext, type Role } from './context.js';
import { HttpError } from './errors.js';

/**
 * The credential cache, in Redis so every replica sees the same state:
 *   <prefix>auth:<sha256(kind:credential)> → {caller, ver}   (TTL ≤ AUTH_CACHE_TTL_SECONDS)
 *   <prefix>authver                       → a random version, replaced on every revocation
 * An entry is used only while its `ver` equals the current version, so one SET
 * (invalidateCredentials) makes every replica ask identity again on its very next request.
 * Revocations are rare (a key revoked, a password changed), so one global version costs little and
 * needs no user id before identity has answered. The version is read *before* identity is asked: a
 * revocation committed after identity answered replaces it, so that entry is
 * stale at once and a revoked credential is never served from the cache.
 */
const entryKey = (ctx: GatewayContext, kind: string, credential: string) =>
  `${ctx.cfg.REDIS_KEY_PREFIX}auth:${createHash('sha256').update(`${kind}:${credential}`).digest('hex')}`;
const versionKey = (ctx: GatewayContext) => `${ctx.cfg.REDIS_KEY_PREFIX}authver`;

type Cached = { caller: Caller; ver: string };

const cacheCounters = new WeakMap<object, ReturnType<GatewayContext['metrics']['counter']>>();
function cacheCounter(ctx: GatewayContext) {
  let c = cacheCounters.get(ctx.metrics);
  if (!c) {
    c = ctx.metrics.counter('signet_gateway_auth_cache_total', 'Credential lookups by cache outcome', ['result']);
    cacheCounters.set(ctx.metrics, c);
  }
  return c;
}

/**
 * Makes every cached credential invalid on every replica at once: call after identity has committed
 * a revocation (API key revoked, password changed or reset).
 */
export async function invalidateCredentials(ctx: GatewayContext): Promise<void> {
  await ctx.redis.set(versionKey(ctx), randomUUID());
}

/**
 * The version when none is stored yet (first use, or evicted): a fresh random one, so entries made
 * under a lost version can never match again.
 */
async function currentVersion(ctx: GatewayContext): Promise<string> {
  await ctx.redis.set(versionKey(ctx), randomUUID(), 'NX');
  return (await ctx.redis.get(versionKey(ctx))) ?? randomUUID();
}

async function resolve(ctx: GatewayContext, kind: 'apiKey' | 'sessionToken', credential: string): Promise<Caller> {
  const counter = cacheCounter(ctx);
  const ek = entryKey(ctx, kind, credential);
  const ttl = ctx.cfg.AUTH_CACHE_TTL_SECONDS;
  let ver: string | null = null; // null: the cache cannot be used now
  if (ttl > 0) {
    try {
      const [raw, current] = await ctx.redis.mget(ek, versionKey(ctx));
      ver = current ?? (await currentVersion(ctx));
      if (raw) {
        const cached = JSON.parse(raw) as Cached;
        if (
          cached.ver === ver &&
          cached.caller.mode &&
          cached.caller.ownerId &&
          (cached.caller.expiresAt === undefined || cached.caller.expiresAt > Date.now() / 1000)
        ) {
          counter.inc({ result: 'hit' });
          return cached.caller;
        }
        counter.inc({ result: 'stale' });
      } else counter.inc({ result: 'miss' });
    } catch {
      // Redis unavailable: identity still decides, nothing is cached.
      ver = null;
      counter.inc({ result: 'unavailable' });
    }
  }
  const r = await ctx.identity.authenticate({
    credential: kind === 'apiKey' ? { $case: 'apiKey', value: credential } : { $case: 'sessionToken', value: credential },
  });
  const caller: Caller = {
    userId: r.userId,
    // Identity always says; an older identity that does not is a single-user account: its owner.
    ownerId: r.ownerId || r.userId,
    role: (ROLES as readonly string[]).includes(r.role) ? (r.role as Role) : 'owner',
    scopes: r.scopes,
    email: r.email,
    orgName: r.orgName,
    method: r.method === 'api_key' ? 'api_key' : 'session',
    mode: r.method === 'api_key' && r.mode === 'test' ? 'test' : 'live',
    sessionId: r.sessionId,
    ...(r.expiresAt ? { expiresAt: r.expiresAt } : {}),
  };
  if (ttl > 0 && ver !== null) {
    const life = caller.expiresAt ? Math.min(ttl, caller.expiresAt - Math.floor(Date.now() / 1000)) : ttl;
    if (life > 0) await ctx.redis.set(ek, JSON.stringify({ caller, ver } satisfies Cached), 'EX', life).catch(() => undefined);
  }
  return caller;
}

/**
 * Authenticates X-API-Key or Authorization: Bearer <JWT> through the identity service (with the
 * shared cache above) and puts the caller on res.locals.caller. Missing or invalid credentials → 401.
 * Every answer of a route behind it says `Cache-Control: no-store` (a route may make it stricter).
 */
export function requireCaller(ctx: GatewayContext, opts: { allowApiKey?: boolean } = {}) {
  const allowApiKey = opts.allowApiKey ?? true;
  return async (req: Request, res: Response, next: NextFunction) => {
    // Authenticated answers (and their refusals) carry tokens and personal data: never kept by a cache.
    res.setHeader('Cache-Control', 'no-store');
    const apiKey = req.get('x-api-key');
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    if (apiKey && !allowApiKey) throw new HttpError(401, 'API keys are not accepted here; sign in');
    if (!apiKey && !bearer) throw new HttpError(401, 'authentication required: X-API-Key or Authorization: Bearer <token>');
    let caller: Caller;
    try {
      caller = await resolve(ctx, apiKey ? 'apiKey' : 'sessionToken', apiKey ?? bearer!);
    } catch (err) {
      if (err instanceof RpcError && err.reason === 'UNAUTHENTICATED') throw new HttpError(401, 'invalid or expired credentials');
      throw err;
    }
    res.locals.caller = withRequestedMode(caller, req.get(MODE_HEADER));
    next();
  };
}

/**
 * The dashboard's test/live switch (issue 34 item 9): a session sees live data unless the request
 * says `Signet-Mode: test`, then it sees and makes test data exactly as a test-mode key does. An API
 * key's mode is the key's: a header naming the other mode is a 400, never a way across.
 */
export const MODE_HEADER = 'signet-mode';
function withRequestedMode(caller: Caller, requested: string | undefined): Caller {
  if (requested === undefined) return caller;
  if (requested !== 'live' && requested !== 'test') throw new HttpError(400, 'Signet-Mode: must be live or test');
  if (caller.method === 'api_key') {
    if (requested !== caller.mode) throw new HttpError(400, `Signet-Mode: this API key is a ${caller.mode} key`);
    return caller;
  }
  return requested === caller.mode ? caller : { ...caller, mode: requested };
}

/** True for a test-mode API key (or a session asking for test data with Signet-Mode): its transactions are test ones, and live ones do not exist for it (404). */
export const isTestMode = (res: Response): boolean => callerOf(res).mode === 'test';

export function callerOf(res: Response): Caller {
  const c = res.locals.caller as Caller | undefined;
  if (!c) throw new HttpError(401, 'authentication required');
  return c;
}
