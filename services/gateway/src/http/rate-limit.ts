import type { NextFunction, Request, Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayContext } from './context.js';
import { HttpError } from './errors.js';

export type RateLimitRule = {
  /** Names the counter (and the metric label): e.g. 'login', 'webhook'. */
  key: string;
  points: number;
  durationSec: number;
};

/** The spec's Limits table, per client IP. */
export const AUTH_LIMITS = {
  login: { key: 'auth_login', points: 10, durationSec: 60 },
  register: { key: 'auth_register', points: 5, durationSec: 300 },
  checkEmail: { key: 'auth_check_email', points: 30, durationSec: 60 },
  sendCode: { key: 'auth_send_code', points: 5, durationSec: 300 },
  verifyEmail: { key: 'auth_verify_email', points: 10, durationSec: 60 },
  sendResetCode: { key: 'auth_send_reset_code', points: 5, durationSec: 300 },
  resetPasswordCode: { key: 'auth_reset_password_code', points: 10, durationSec: 60 },
} satisfies Record<string, RateLimitRule>;

const rejected = new WeakMap<object, ReturnType<GatewayContext['metrics']['counter']>>();
function rejectedCounter(ctx: GatewayContext) {
  let c = rejected.get(ctx.metrics);
  if (!c) {
    c = ctx.metrics.counter('signet_gateway_rate_limited_total', 'Requests answered 429 by a rate limit', ['limit']);
    rejected.set(ctx.metrics, c);
  }
  return c;
}

/**
 * Express middleware: a fixed-window limit per client IP kept in Redis, so every gateway replica
 * shares the counter. Over the limit → 429 with Retry-After (seconds). The client IP is `req.ip`,
 * which honours X-Forwarded-For only from TRUSTED_PROXIES (app.ts sets `trust proxy`).
 * If Redis cannot answer the request fails closed with 503: these limits guard credentials.
 */
export function rateLimit(ctx: GatewayContext, rule: RateLimitRule) {
  const limiter = new RateLimiterRedis({
    storeClient: ctx.redis,
    keyPrefix: `${ctx.cfg.REDIS_KEY_PREFIX}rl:${rule.key}`,
    points: rule.points,
    duration: rule.durationSec,
  });
  const counter = rejectedCounter(ctx);
  return async (req: Request, _res: Response, next: NextFunction) => {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    try {
      await limiter.consume(ip, 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        counter.inc({ limit: rule.key });
        throw new HttpError(
          429,
          `too many requests; retry in ${Math.ceil(err.msBeforeNext / 1000)} s`,
          Math.ceil(err.msBeforeNext / 1000),
        );
      }
      ctx.logger.warn({ err: { message: (err as Error).message }, limit: rule.key }, 'rate limiter unavailable');
      throw new HttpError(503, 'rate limiter unavailable; retry shortly', 5);
    }
    next();
  };
}
