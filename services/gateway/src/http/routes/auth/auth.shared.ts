import express, { type RequestHandler } from 'express';
import type { z } from 'zod';
import type { identityV1 } from '@signet/proto';
import { requireCaller } from '../../auth.js';
import type { GatewayContext } from '../../context.js';
import { rateLimit, type RateLimitRule } from '../../rate-limit.js';
import { HEADERS, type ResponseSpec } from '../../route.js';
import type { loginResult } from './auth.schemas.js';

export const TAGS = ['Authentication'];

export const sessionJson = (s: identityV1.Session): z.input<typeof loginResult> => ({
  token: s.token,
  email: s.email,
  org_name: s.orgName,
  expires_at: s.expiresAt,
});

/** Plan fields come from billing when it answers; the profile never fails because billing is down. */
export async function planOf(ctx: GatewayContext, userId: string) {
  try {
    const a = await ctx.billing.getAccount({ userId }, { deadlineMs: 1500 });
    return {
      plan: a.plan as 'Free' | 'Pro' | 'Firm',
      monthly_limit: a.monthlyLimit,
      monthly_used: a.monthlyUsed,
      signature_credits: a.signatureCredits,
      past_due: a.pastDue,
    };
  } catch {
    return {};
  }
}

/** `x-rate-limit` and the 429 of a rate-limited operation. */
export const limited = (rule: RateLimitRule) => ({
  'x-rate-limit': `${rule.points} requests per ${rule.durationSec === 60 ? 'minute' : `${rule.durationSec / 60} minutes`} per client IP`,
});

/** A documented 2xx response: description, body schema and headers. */
type Ok = <B extends z.ZodType>(
  description: string,
  body: B,
  headers?: ResponseSpec['headers'],
) => { description: string; body: B; headers?: ResponseSpec['headers'] };

export interface AuthKit {
  /** the JSON body parser (16 kB), run after the rate limit */
  json: RequestHandler;
  /** the rate limit of one rule, then the JSON body */
  limit: (rule: RateLimitRule) => RequestHandler;
  /** a dashboard session is required (API keys refused) */
  session: RequestHandler;
  noStore: { 'Cache-Control': typeof HEADERS.cacheControl };
  ok: Ok;
  publicOp: { tags: string[]; security: 'public' };
  /** A signed-in member's own account (password, two-factor, passkeys): every role may (issue 34). */
  sessionOp: { tags: string[]; security: 'session'; role: 'viewer' };
}

/** What every /api/auth route module shares: the rate limit before the JSON body, the session guard, response helpers. */
export function authKit(ctx: GatewayContext): AuthKit {
  // The limiter runs before the body is parsed, so malformed requests count too.
  const json: RequestHandler = express.json({ limit: '16kb' });
  const limit = (rule: RateLimitRule): RequestHandler => {
    const limiter = rateLimit(ctx, rule);
    return (req, res, next) => {
      limiter(req, res, (err?: unknown) => (err ? next(err) : json(req, res, next))).catch(next);
    };
  };
  const session: RequestHandler = requireCaller(ctx, { allowApiKey: false });
  const noStore = { 'Cache-Control': HEADERS.cacheControl };
  const ok = <B extends z.ZodType>(description: string, body: B, headers?: ResponseSpec['headers']) => ({
    description,
    body,
    ...(headers ? { headers } : {}),
  });
  const publicOp = { tags: TAGS, security: 'public' as const };
  const sessionOp = { tags: TAGS, security: 'session' as const, role: 'viewer' as const };

  return { json, limit, session, noStore, ok, publicOp, sessionOp };
}
