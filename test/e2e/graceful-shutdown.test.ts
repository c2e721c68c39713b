/**
 * Issue 19, "Graceful rollouts": the gateway as its own process (main.ts, as in a pod) gets SIGTERM
 * while 50 requests are in flight and loses none of them (every one answers 2xx); its readiness
 * answers 503 from the signal on, while it still serves for SHUTDOWN_DELAY_MS; then it stops
 * accepting, finishes what it has, and exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { freePort } from '../harness/local-infra.js';
import { eventually, infra, startServices } from '../harness/services.js';

const ROOT = join(import.meta.dirname, '../..');
const suffix = randomBytes(3).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway shutdown on SIGTERM', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  const children: ChildProcess[] = [];

  /** Starts the gateway's main.ts in a process of its own on `port`, against the stack's backends. */
  async function gateway(port: number, shutdownDelayMs: number) {
    const opsPort = await freePort();
    const child = spawn(process.execPath, ['--conditions=@signet/source', '--import', 'tsx', 'services/gateway/src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        ...stack.env,
        HTTP_PORT: String(port),
        OPS_PORT: String(opsPort),
        SHUTDOWN_DELAY_MS: String(shutdownDelayMs),
        SHUTDOWN_TIMEOUT_MS: '20000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    const url = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, 60_000);
    return { url, child, exited, stderr: () => stderr };
  }

  const list = (url: string) =>
    fetch(`${url}/api/transactions?limit=5`, { headers: { 'x-api-key': acct.apiKey } }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
      (err: Error & { cause?: { code?: string } }) => ({ status: 0, body: err.cause?.code ?? err.message }),
    );

  /** GET of the list on a connection of its own (no pooling), reporting when its request is written. */
  const get = (url: string, sent: () => void) =>
    new Promise<{ status: number; body: string }>((resolve) => {
      const req = request(`${url}/api/transactions?limit=5`, { headers: { 'x-api-key': acct.apiKey }, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (e) => resolve({ status: 0, body: e.message }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, body: e.code ?? e.message }));
      req.on('socket', (socket) => socket.once('connect', () => req.once('finish', sent)));
      req.end();
    });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction'], {
      env: { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` },
    });
    const first = await gateway(Number(new URL(stack.gatewayUrl).port), 0);
    acct = await createAccount(first.url, infra().MAILPIT_URL);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 180_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await stack?.stop();
  });

  it('finishes 50 requests in flight when SIGTERM arrives, then exits 0', async () => {
    const gw = await gateway(await freePort(), 0);
    expect((await list(gw.url)).status).toBe(200);
    let answered = 0;
    let connected = 0;
    const requests = Array.from({ length: 50 }, () => get(gw.url, () => connected++).finally(() => answered++));
    // The signal lands while they are being served: every request sent on its own connection, the
    // first answered, not the last.
    await eventually(async () => connected === 50, 10_000);
    await Promise.race(requests);
    gw.child.kill('SIGTERM');
    const inFlightAtSignal = 50 - answered;
    expect(inFlightAtSignal).toBeGreaterThan(0);
    const got = await Promise.all(requests);
    const statuses = got.map((g) => g.status);
    expect(
      statuses.filter((s) => s >= 200 && s < 300),
      JSON.stringify(got.filter((g) => g.status !== 200)),
    ).toHaveLength(50);
    expect(await gw.exited, gw.stderr()).toBe(0);
    // It is gone: a new request finds nobody listening.
    expect((await list(gw.url)).status).toBe(0);
  });

  it('answers 503 on /readyz from the signal on and keeps serving for SHUTDOWN_DELAY_MS before it stops accepting', async () => {
    const gw = await gateway(await freePort(), 1_500);
    gw.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${gw.url}/readyz`)).status === 503, 1_000);
    const ready = (await (await fetch(`${gw.url}/readyz`)).json()) as { checks: Record<string, string> };
    expect(ready.checks).toEqual({ shutdown: 'draining' });
    // Callers that have not seen the readiness change yet are still served, 50 at once.
    const got = await Promise.all(Array.from({ length: 50 }, () => list(gw.url)));
    expect(got.filter((g) => g.status === 200)).toHaveLength(50);
    expect(await gw.exited, gw.stderr()).toBe(0);
    expect((await list(gw.url)).status).toBe(0);
  });

  it('still exits at once on a second signal', async () => {
    const gw = await gateway(await freePort(), 10_000);
    gw.child.kill('SIGTERM');
    await sleep(200);
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toBe(1);
  });
});
