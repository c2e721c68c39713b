import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger, Metrics } from '@signet/kit';
import type { Caller, Role } from './context.js';
import { errorBoundary } from './errors.js';
import { countRoleRefusals, requiredRole } from './roles.js';
import { defineRoute, errorResponses, mountRoutes, operationOf } from './route.js';

/** A caller of the role named in the X-Role header (the real one comes from identity through auth.ts). */
const fakeAuth: express.RequestHandler = (req, res, next) => {
  const role = req.get('x-role') as Role | undefined;
  if (role) {
    const caller: Caller = {
      userId: 'm1',
      ownerId: 'o1',
      role,
      scopes: [],
      email: 'm@example.test',
      orgName: 'Org',
      method: req.get('x-key') ? 'api_key' : 'session',
      mode: 'live',
      sessionId: '',
    };
    res.locals.caller = caller;
  }
  next();
};

const route = (method: 'get' | 'post', path: string, role?: Role) =>
  defineRoute({
    method,
    path,
    operationId: `op${path.replace(/\W/g, '')}`,
    summary: 'test',
    tags: ['Test'],
    security: 'caller',
    ...(role ? { role } : {}),
    use: [fakeAuth],
    responses: { 200: { description: 'ok', body: z.object({ ok: z.boolean() }) }, ...errorResponses(401) },
    async handle() {
      return { status: 200 as const, body: { ok: true } };
    },
  });

describe('roles on declared operations', () => {
  let base = '';
  let close: () => void;
  const metrics = new Metrics('gateway');
  const routes = [
    route('get', '/read'),
    route('post', '/write'),
    route('post', '/manage', 'admin'),
    route('get', '/bill', 'owner'),
  ];

  beforeAll(async () => {
    const app = express();
    const r = express.Router();
    mountRoutes(r, routes);
    app.use(r);
    app.use(countRoleRefusals(metrics));
    app.use(errorBoundary(createLogger('test', 'silent')));
    const server = app.listen(0);
    await new Promise((ok) => server.once('listening', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const call = (method: string, path: string, role?: Role, key = false) =>
    fetch(`${base}${path}`, { method, headers: { ...(role ? { 'x-role': role } : {}), ...(key ? { 'x-key': '1' } : {}) } });

  it('a GET needs a viewer, anything else a sender, unless the route says more', () => {
    expect(routes.map((r) => requiredRole(r))).toEqual(['viewer', 'sender', 'admin', 'owner']);
    expect(requiredRole({ method: 'post', security: 'public' })).toBeUndefined();
  });

  it('refuses a role below the operation’s with a 403 naming both, and lets the rest through', async () => {
    const matrix: Record<string, number[]> = {};
    for (const [m, p] of [
      ['GET', '/read'],
      ['POST', '/write'],
      ['POST', '/manage'],
      ['GET', '/bill'],
    ] as const)
      matrix[p] = await Promise.all(
        (['viewer', 'sender', 'admin', 'owner'] as const).map(async (r) => (await call(m, p, r)).status),
      );
    expect(matrix).toEqual({
      '/read': [200, 200, 200, 200],
      '/write': [403, 200, 200, 200],
      '/manage': [403, 403, 200, 200],
      '/bill': [403, 403, 403, 200],
    });
    const r = await call('POST', '/manage', 'sender');
    expect(await r.json()).toEqual({ detail: 'this needs the admin role; yours is sender' });
    const k = await call('POST', '/manage', 'viewer', true);
    expect(((await k.json()) as { detail: string }).detail).toMatch(/this API key acts as viewer/);
    // No caller at all is a 401, never a pass.
    expect((await call('GET', '/read')).status).toBe(401);
    expect(await metrics.registry.getSingleMetricAsString('signet_gateway_role_refused_total')).toMatch(
      /required="admin",role="sender",method="session"[^}]*} 2/,
    );
  });

  it('shows the role as x-signet-role and documents the 403 of every operation above viewer', () => {
    const ops = routes.map((r) => operationOf(r) as Record<string, any>);
    expect(ops.map((o) => o['x-signet-role'])).toEqual(['viewer', 'sender', 'admin', 'owner']);
    expect(ops.map((o) => Boolean(o.responses['403']))).toEqual([false, true, true, true]);
  });
});
