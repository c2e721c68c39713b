import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayContext } from './context.js';
import { HttpError } from './errors.js';

/**
 * What a limit counts per: the client IP, the signing token in the route's `:token` parameter, or the
 * authenticated caller (after requireCaller).
 */
export type RateLimitScope = 'ip' | 'token' | 'caller';

export type RateLimitRule = {
  /** Names the counter (and the metric label): e.g. 'auth_login', 'sign_token'. */
  key: string;
  points: number;
  durationSec: number;
  /** Default 'ip'. */
  per?: RateLimitScope;
};

/**
 * Every gateway rate limit, in one table. Fixed windows in Redis shared by all replicas; over a
 * limit → 429 with Retry-After and `{"detail": ...}`, counted in `signet_gateway_rate_limited_total{limit}`.
 * The auth limits are the spec's Limits table; the ceremony (sign_*) limits are docs/decisions.md
 * "Ceremony rate limits": per token over every /api/sign/{token}/* route (the page polls summary
 * every 2 s), capture uploads per token, and per client IP across tokens (bounds token guessing).
 */
export const RATE_LIMITS = {
  auth_login: { key: 'auth_login', points: 10, durationSec: 60, per: 'ip' },
  auth_register: { key: 'auth_register', points: 5, durationSec: 300, per: 'ip' },
  auth_check_email: { key: 'auth_check_email', points: 30, durationSec: 60, per: 'ip' },
  auth_send_code: { key: 'auth_send_code', points: 5, durationSec: 300, per: 'ip' },
  auth_verify_email: { key: 'auth_verify_email', points: 10, durationSec: 60, per: 'ip' },
  auth_send_reset_code: { key: 'auth_send_reset_code', points: 5, durationSec: 300, per: 'ip' },
  auth_reset_password_code: { key: 'auth_reset_password_code', points: 10, durationSec: 60, per: 'ip' },
  webhook: { key: 'webhook', points: 120, durationSec: 60, per: 'ip' },
  sign_ip: { key: 'sign_ip', points: 600, durationSec: 60, per: 'ip' },
  sign_token: { key: 'sign_token', points: 120, durationSec: 60, per: 'token' },
  sign_capture: { key: 'sign_capture', points: 10, durationSec: 600, per: 'token' },
  erasure_ip: { key: 'erasure_ip', points: 20, durationSec: 60, per: 'ip' },
  // POST /api/verify/signed-pdf reads and parses up to VERIFY_SIGNED_PDF_MAX_BYTES per request: a few a minute per address.
  verify_signed_pdf: { key: 'verify_signed_pdf', points: 20, durationSec: 60, per: 'ip' },
  // Test mode: test transactions use no quota, so this alone bounds what a test key's account creates.
  test_create: { key: 'test_create', points: 120, durationSec: 60, per: 'caller' },
} as const satisfies Record<string, RateLimitRule & { per: RateLimitScope }>;

/** The auth routes' names for their rows of the table. */
export const AUTH_LIMITS = {
  login: RATE_LIMITS.auth_login,
  register: RATE_LIMITS.auth_register,
  checkEmail: RATE_LIMITS.auth_check_email,
  sendCode: RATE_LIMITS.auth_send_code,
  verifyEmail: RATE_LIMITS.auth_verify_email,
  sendResetCode: RATE_LIMITS.auth_send_reset_code,
  resetPasswordCode: RATE_LIMITS.auth_reset_password_code,
} satisfies Record<string, RateLimitRule>;

/** The ceremony routes' rows of the table. */
export const SIGN_LIMITS = {
  ip: RATE_LIMITS.sign_ip,
  token: RATE_LIMITS.sign_token,
  capture: RATE_LIMITS.sign_capture,
} satisfies Record<string, RateLimitRule>;

/** A signing token is never a Redis key: its truncated SHA-256 is (128 bits, enough to keep tokens apart). */
export const tokenKey = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 22);

const rejected = new WeakMap<object, ReturnType<GatewayContext['metrics']['counter']>>();
function rejectedCounter(ctx: GatewayContext) {
  let c = rejected.get(ctx.metrics);
  if (!c) {
    c = ctx.metrics.counter('signet_gateway_rate_limited_total', 'Requests answered 429 by a rate limit', ['limit']);
    rejected.set(ctx.metrics, c);
  }
  return c;
}

function subjectOf(req: Request, per: RateLimitScope): string {
  if (per === 'token') return tokenKey(String(req.params.token ?? ''));
  if (per === 'caller') return String((req.res?.locals.caller as { userId?: string } | undefined)?.userId ?? 'unknown');
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * The check for one row of RATE_LIMITS: a fixed-window counter kept in Redis, so every gateway
 * replica shares it; resolves if the request is within the limit. Over the limit → HttpError 429 with
 * Retry-After (whole seconds, at least 1). The client IP is `req.ip`, which honours X-Forwarded-For
 * only from TRUSTED_PROXIES (app.ts sets `trust proxy`). If Redis cannot answer it fails closed with
 * 503: these limits guard credentials and signing links.
 */
export function rateLimitCheck(ctx: GatewayContext, rule: RateLimitRule): (req: Request) => Promise<void> {
  const limiter = new RateLimiterRedis({
    storeClient: ctx.redis,
    keyPrefix: `${ctx.cfg.REDIS_KEY_PREFIX}rl:${rule.key}`,
    // AUTH_RATE_LIMIT_SCALE: tests only (the fuzzing test), refused in production by the config.
    points: rule.key.startsWith('auth_') ? rule.points * (ctx.cfg.AUTH_RATE_LIMIT_SCALE ?? 1) : rule.points,
    duration: rule.durationSec,
  });
  const counter = rejectedCounter(ctx);
  const per = rule.per ?? 'ip';
  return async (req) => {
    try {
      await limiter.consume(subjectOf(req, per), 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        counter.inc({ limit: rule.key });
        const s = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new HttpError(429, `too many requests; retry in ${s} s`, s);
      }
      ctx.logger.warn({ err: { message: (err as Error).message }, limit: rule.key }, 'rate limiter unavailable');
      throw new HttpError(503, 'rate limiter unavailable; retry shortly', 5);
    }
  };
}

/** Express middleware for one row of RATE_LIMITS (see rateLimitCheck). */
export function rateLimit(ctx: GatewayContext, rule: RateLimitRule) {
  const check = rateLimitCheck(ctx, rule);
  return async (req: Request, _res: Response, next: NextFunction) => {
    await check(req);
    next();
  };
}
