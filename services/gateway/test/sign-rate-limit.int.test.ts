import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../../../test/harness/services.js';
import { RATE_LIMITS } from '../src/http/rate-limit.js';

/**
 * The ceremony limits (docs/decisions.md "Ceremony rate limits") through the gateway's one rate-limit
 * mechanism: two gateways sharing Redis, no ceremony behind them (the limits answer before it is called).
 */
describe('/api/sign/{token}/* rate limits (real Redis, two gateways)', () => {
  let one: Awaited<ReturnType<typeof startServices>>;
  let two: Awaited<ReturnType<typeof startServices>>;
  const token = () => randomBytes(32).toString('base64url');
  let ipSeq = 0;
  const uniqueIp = () => `10.77.${Math.floor(Math.random() * 250)}.${(ipSeq++ % 250) + 1}`;
  const call = async (base: string, method: string, path: string, ip: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-forwarded-for': ip, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: { detail?: string } = {};
    try {
      parsed = JSON.parse(text) as { detail?: string };
    } catch {
      /* not JSON */
    }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: parsed };
  };

  beforeAll(async () => {
    const shared = { REDIS_KEY_PREFIX: `t_signrl_${randomBytes(4).toString('hex')}:` };
    one = await startServices(['gateway'], { env: shared });
    two = await startServices(['gateway'], { env: shared });
  });
  afterAll(async () => {
    await two?.stop();
    await one?.stop();
  });

  it('the table holds the decided values', () => {
    expect(RATE_LIMITS.sign_token).toMatchObject({ points: 120, durationSec: 60, per: 'token' });
    expect(RATE_LIMITS.sign_capture).toMatchObject({ points: 10, durationSec: 600, per: 'token' });
    expect(RATE_LIMITS.sign_ip).toMatchObject({ points: 600, durationSec: 60, per: 'ip' });
  });

  it('121st request in a minute for one token → 429 with Retry-After, counted across gateways and IPs', async () => {
    const t = token();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++)
      statuses.push((await call(i % 2 ? two.gatewayUrl : one.gatewayUrl, 'GET', `/api/sign/${t}/summary`, uniqueIp())).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const last = await call(one.gatewayUrl, 'GET', `/api/sign/${t}/summary`, uniqueIp());
    expect(last.status).toBe(429);
    expect(Number(last.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(last.retryAfter)).toBeLessThanOrEqual(60);
    expect(last.body.detail).toMatch(/too many requests/);
    // Another token has its own counter.
    expect((await call(two.gatewayUrl, 'GET', `/api/sign/${token()}/summary`, uniqueIp())).status).not.toBe(429);
    const metrics = await (await fetch(`http://127.0.0.1:${one.opsPorts.gateway}/metrics`)).text();
    expect(metrics).toMatch(/signet_gateway_rate_limited_total\{[^}]*limit="sign_token"[^}]*\} 1\n/);
  });

  it('11th capture upload in 10 minutes for one token → 429 (Retry-After beyond a minute)', async () => {
    const t = token();
    const statuses: number[] = [];
    // Not multipart: refused with 400 after the limit has counted it.
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await call(i % 2 ? two.gatewayUrl : one.gatewayUrl, 'POST', `/api/sign/${t}/capture`, uniqueIp(), {})).status,
      );
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    const r = await call(one.gatewayUrl, 'POST', `/api/sign/${t}/capture`, uniqueIp(), {});
    expect(r.status).toBe(429);
    expect(Number(r.retryAfter)).toBeGreaterThan(60);
    expect(r.body.detail).toMatch(/too many requests/);
    // Other routes of that token are still within the per-token limit.
    expect((await call(one.gatewayUrl, 'GET', `/api/sign/${t}/summary`, uniqueIp())).status).not.toBe(429);
  });

  it('601st request in a minute from one IP across tokens (malformed ones too) → 429', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++)
      statuses.push((await call(i % 2 ? two.gatewayUrl : one.gatewayUrl, 'GET', `/api/sign/bad-${i}/summary`, ip)).status);
    expect(new Set(statuses)).toEqual(new Set([404]));
    const over = await call(one.gatewayUrl, 'GET', `/api/sign/${token()}/summary`, ip);
    expect(over.status).toBe(429);
    expect(Number(over.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(over.body.detail).toMatch(/too many requests/);
    // Another address is not limited.
    expect((await call(two.gatewayUrl, 'GET', `/api/sign/${token()}/summary`, uniqueIp())).status).not.toBe(429);
  });
});
