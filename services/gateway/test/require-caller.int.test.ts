import express from 'express';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createLogger, Metrics } from '@signet/kit';
import { identityV1 } from '@signet/proto';
import { createAccount } from '../../../test/harness/accounts.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { client } from '../../../test/support/identity-helpers.js';
import { callerOf, requireCaller } from '../src/http/auth.js';
import type { GatewayContext } from '../src/http/context.js';
import { errorBoundary } from '../src/http/errors.js';

type Stack = Awaited<ReturnType<typeof startServices>>;

/**
 * The gateway's requireCaller middleware and error boundary, mounted on a route of another module
 * (/api/transactions) in a second "replica" with its own gRPC client and Redis connection that
 * shares the stack's Redis key prefix (moved here from the identity end-to-end test: it exercises
 * the gateway's own modules, not its public API).
 */
async function transactionsReplica(stack: Stack) {
  const metrics = new Metrics('gateway');
  const redis = new Redis(infra().REDIS_URL);
  const identity = createClient(identityV1.IdentityServiceClient, stack.env.IDENTITY_ADDR!, { metrics });
  const ctx = {
    cfg: { REDIS_KEY_PREFIX: stack.env.REDIS_KEY_PREFIX!, AUTH_CACHE_TTL_SECONDS: 60 },
    logger: createLogger('test', 'silent'),
    metrics,
    redis,
    identity,
  } as unknown as GatewayContext;
  const app = express();
  app.get('/api/transactions', requireCaller(ctx), (_req, res) => {
    res.json({ caller: callerOf(res) });
  });
  app.use(errorBoundary(ctx.logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    call: client(url),
    metrics,
    async stop() {
      server.close();
      identity.close();
      redis.disconnect();
    },
  };
}

describe('requireCaller on another module’s route (real identity, Redis)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startServices(['identity', 'gateway']);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('an API key authenticates /api/transactions with its caller, cached; a revocation through the gateway reaches the replica at once', async () => {
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, {
      orgName: 'Analytical Engines Ltd',
      tag: 'replica',
    });
    const api = client(stack.gatewayUrl);
    const replica = await transactionsReplica(stack);
    try {
      const key = acct.apiKey;
      const tx = await replica.call('GET', '/api/transactions', { apiKey: key });
      expect(tx.status).toBe(200);
      expect(tx.body.caller).toMatchObject({
        userId: acct.userId,
        email: acct.email,
        orgName: 'Analytical Engines Ltd',
        method: 'api_key',
      });
      expect((await replica.call('GET', '/api/transactions', { apiKey: key })).status).toBe(200); // now from the cache
      expect(await replica.metrics.registry.getSingleMetricAsString('signet_gateway_auth_cache_total')).toMatch(
        /result="hit"[^\n]* 1/,
      );
      expect(
        (await replica.call('GET', '/api/transactions', { apiKey: `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}` }))
          .status,
      ).toBe(401);
      expect((await replica.call('GET', '/api/transactions', { token: acct.token })).status).toBe(200);
      expect((await replica.call('GET', '/api/transactions', {})).status).toBe(401);

      const csrf = (await api('GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
      const [listed] = (await api('GET', '/api/admin/api-keys', { token: acct.token })).body.api_keys as { id: string }[];
      expect((await api('DELETE', `/api/admin/api-keys/${listed!.id}`, { token: acct.token, query: { csrf } })).status).toBe(204);
      expect((await replica.call('GET', '/api/transactions', { apiKey: key })).status).toBe(401);
    } finally {
      await replica.stop();
    }
  });
});
