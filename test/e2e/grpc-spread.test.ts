/**
 * Calls spread over every replica (issue 35): three identity replicas behind one gateway, which
 * dials them all (the `ipv4:` list the local stack gives, as a headless Service's DNS name does in
 * the chart) with round-robin calls. Each replica serves its share of the calls, counted by its own
 * /metrics; one stopped under load (as a rollout stops a pod) is dropped without a failed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';

type Stack = Awaited<ReturnType<typeof startServices>>;

/** Calls identity has served on one replica: the count of its gRPC server histogram, over every method. */
async function served(opsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('signet_grpc_server_handling_seconds_count{'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('gRPC calls across three identity replicas (real services, loopback)', () => {
  let stack: Stack;
  let account: Account;
  const me = () => fetch(`${stack.gatewayUrl}/api/auth/me`, { method: 'POST', headers: { 'x-api-key': account.apiKey } });
  const counts = () => Promise.all(stack.replicaOpsPorts.identity!.map(served));

  beforeAll(async () => {
    // No cached authentication: every request reaches identity (authenticate, then the profile).
    stack = await startServices(['identity', 'gateway'], {
      replicas: { identity: 3 },
      env: { AUTH_CACHE_TTL_SECONDS: '0' },
    });
    account = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('gives each replica its share of the calls (within 20 % of even)', async () => {
    expect(stack.env.IDENTITY_ADDR).toMatch(/^ipv4:127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
    const before = await counts();
    for (let k = 0; k < 150; k++) {
      const r = await me();
      expect(r.status, await r.text()).toBe(200);
    }
    const after = await counts();
    const share = after.map((n, k) => n - before[k]!);
    const total = share.reduce((a, b) => a + b, 0);
    console.log(`[grpc-spread] calls per identity replica: ${share.join(', ')} of ${total}`);
    expect(total).toBeGreaterThanOrEqual(300);
    for (const n of share)
      expect(Math.abs(n - total / 3), `calls per replica: ${share.join(', ')}`).toBeLessThanOrEqual(total / 15);
  }, 120_000);

  it('drops a replica stopped under load without a failed request', async () => {
    let stop = false;
    const statuses: number[] = [];
    const worker = async () => {
      while (!stop) statuses.push((await me().catch(() => ({ status: 0 }))).status);
    };
    const workers = Array.from({ length: 4 }, worker);
    await new Promise((r) => setTimeout(r, 500));
    await stack.stopReplica('identity', 2);
    const left = () => Promise.all(stack.replicaOpsPorts.identity!.slice(0, 2).map(served));
    const leftAtStop = await left();
    await new Promise((r) => setTimeout(r, 1_000));
    stop = true;
    await Promise.all(workers);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // The two left carried on, each serving calls after the third went.
    const leftAtEnd = await left();
    expect(leftAtEnd[0]!).toBeGreaterThan(leftAtStop[0]!);
    expect(leftAtEnd[1]!).toBeGreaterThan(leftAtStop[1]!);
  }, 120_000);
});
