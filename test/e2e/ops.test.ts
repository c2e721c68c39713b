import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices, type ServiceName } from '../harness/services.js';

const ALL: ServiceName[] = ['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'];

describe('every service exposes /metrics, /healthz and /readyz', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  beforeAll(async () => {
    stack = await startServices(ALL);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(ALL)('%s', async (name) => {
    const ops = `http://127.0.0.1:${stack.opsPorts[name]}`;
    expect((await fetch(`${ops}/healthz`)).status).toBe(200);
    const ready = await fetch(`${ops}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ready');
    // A request so the HTTP histogram has a sample.
    await fetch(`${ops}/healthz`);
    const text = await (await fetch(`${ops}/metrics`)).text();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(text).toMatch(/signet_http_request_duration_seconds_bucket\{[^}]*route="\/healthz"/);
    expect(text).toContain('# TYPE signet_grpc_server_handling_seconds histogram');
    expect(text).toContain(`service="${name}"`);
  });

  it('the gateway is ready when what it needs itself answers (Redis), not its upstreams (issue 19)', async () => {
    const res = await fetch(`${stack.gatewayUrl}/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(res.status).toBe(200);
    expect(Object.keys(body.checks)).toEqual(['redis']);
  });
});
