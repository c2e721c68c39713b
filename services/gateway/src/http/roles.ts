import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Metrics } from '@signet/kit';
import { ROLES, type Caller, type Role } from './context.js';
import { HttpError } from './errors.js';

/**
 * Roles on every route (issue 34 item 1). Each authenticated operation needs a role, declared on the
 * route (`role`) or, when it says nothing, by its method: reads need `viewer`, anything else
 * `sender`. Operations that need more (keys, webhooks, members, settings: admin; billing and
 * ownership: owner) say so. The role is the OpenAPI extension `x-signet-role`.
 */
export const roleRank = (r: Role): number => ROLES.indexOf(r);
export const roleAtLeast = (r: Role, min: Role): boolean => roleRank(r) >= roleRank(min);

/** The role an operation needs, or undefined for a public one. */
export function requiredRole(r: { role?: Role; method: string; security: string }): Role | undefined {
  if (r.security === 'public') return undefined;
  return r.role ?? (r.method === 'get' ? 'viewer' : 'sender');
}

/** A 403 for a caller below the operation's role (counted by countRoleRefusals). */
export class RoleRefused extends HttpError {
  constructor(
    readonly required: Role,
    readonly held: Role,
    readonly method: 'api_key' | 'session',
  ) {
    super(
      403,
      method === 'api_key'
        ? `this needs the ${required} role; this API key acts as ${held} (its scopes and its member's role)`
        : `this needs the ${required} role; yours is ${held}`,
    );
  }
}

/** Refuses a caller below `min`; after the auth middleware (res.locals.caller). */
export function checkRole(caller: Caller | undefined, min: Role): void {
  if (!caller) throw new HttpError(401, 'authentication required');
  if (!roleAtLeast(caller.role, min)) throw new RoleRefused(min, caller.role, caller.method);
}

/** The same check as middleware, for routes not declared with defineRoute. */
export const requireRole =
  (min: Role): RequestHandler =>
  (_req, res, next) => {
    checkRole(res.locals.caller as Caller | undefined, min);
    next();
  };

/** Counts role refusals: signet_gateway_role_refused_total{required, role, method}. */
export function countRoleRefusals(metrics: Metrics): ErrorRequestHandler {
  const refused = metrics.counter(
    'signet_gateway_role_refused_total',
    'Requests refused (403) for a role below the operation’s',
    ['required', 'role', 'method'],
  );
  return (err, _req, _res, next) => {
    if (err instanceof RoleRefused) refused.inc({ required: err.required, role: err.held, method: err.method });
    next(err);
  };
}
