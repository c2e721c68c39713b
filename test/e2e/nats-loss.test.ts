/**
 * Issue 19, readiness that isolates: NATS going away makes no service unready, because every service
 * publishes through its outbox. With the stack's NATS (a server of this test's own) stopped, the
 * backends stay ready (NATS reported "not required"), a sign-up through the gateway still succeeds and
 * its event waits in identity's outbox; NATS back, the outbox drains and billing consumes the event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../harness/accounts.js';
import { freePort } from '../harness/local-infra.js';
import { eventually, infra, startServices } from '../harness/services.js';

const NATS_BIN = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin/nats-server');

describe('the stack without NATS', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-nats-loss-'));
  let port: number;
  let nats: ChildProcess | undefined;
  let stack: Awaited<ReturnType<typeof startServices>>;

  const tcpOpen = () =>
    new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
  async function startNats() {
    nats = spawn(NATS_BIN, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dataDir], { stdio: 'ignore' });
    await eventually(tcpOpen, 10_000);
  }
  async function stopNats() {
    const exited = once(nats!, 'exit');
    nats!.kill('SIGTERM');
    await exited;
    nats = undefined;
  }

  const readyz = async (service: string) => {
    const res = await fetch(`http://127.0.0.1:${stack.opsPorts[service]}/readyz`);
    return { status: res.status, checks: ((await res.json()) as { checks: Record<string, string> }).checks };
  };
  /** The sum of one metric's samples on a service's /metrics that carry every one of `labels`. */
  const metric = async (service: string, name: string, labels: string[] = []) => {
    const text = await (await fetch(`http://127.0.0.1:${stack.opsPorts[service]}/metrics`)).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)))
      .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
  };

  beforeAll(async () => {
    port = await freePort();
    await startNats();
    stack = await startServices(['identity', 'billing', 'gateway'], { env: { NATS_URL: `nats://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await stack?.stop();
    if (nats) await stopNats();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the backends ready and serving; the outbox publishes once NATS is back', async () => {
    expect((await readyz('identity')).checks.nats).toBe('ok');
    await stopNats();

    for (const service of ['identity', 'billing']) {
      const r = await readyz(service);
      expect(r.status, service).toBe(200);
      expect(r.checks.nats, service).toMatch(/\(not required\)$/);
      expect(r.checks.mongo, service).toBe('ok');
    }

    // A sign-up writes the user and its identity.user.created event in identity's database.
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
    expect(acct.apiKey).toBeTruthy();
    await eventually(async () => (await metric('identity', 'signet_outbox_pending')) > 0, 10_000);
    const consumed = ['consumer="billing-identity-user-created"', 'result="ok"'];
    const consumedBefore = await metric('billing', 'signet_events_consumed_total', consumed);

    await startNats();
    await eventually(async () => (await readyz('identity')).checks.nats === 'ok', 20_000);
    await eventually(async () => (await metric('identity', 'signet_outbox_pending')) === 0, 20_000);
    await eventually(async () => (await metric('billing', 'signet_events_consumed_total', consumed)) > consumedBefore, 20_000);
  });
});
