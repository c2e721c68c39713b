/**
 * Starts Signet services in this process on free ports against the real infrastructure the
 * globalSetup found. Each call gets its own database names, so test files do not see each other's data.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createLogger, parseConfig } from '@signet/kit';
import { freePort } from './local-infra.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { startGateway } from '../../services/gateway/src/app.js';
import { ledgerConfigSchema } from '../../services/ledger/src/config.js';
import { startLedger } from '../../services/ledger/src/app.js';

export type ServiceName = 'gateway' | 'ledger';

export function infra() {
  return inject('infra');
}

/** Fresh secrets for one test run: generated, never defaults. */
export function testSecrets() {
  return {
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
  };
}

export async function startServices(names: ServiceName[], opts: { ledgerAckWaitMs?: number } = {}) {
  const i = infra();
  const run = randomBytes(4).toString('hex');
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const grpc: Record<string, number> = {};
  for (const n of ['identity', 'transaction', 'ceremony', 'biometrics', 'ledger', 'billing']) grpc[n] = await freePort();
  const addr = (n: string) => `127.0.0.1:${grpc[n]}`;
  const common = { ...i, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...testSecrets() } as Record<string, string>;
  const stops: (() => Promise<void>)[] = [];
  const out: { gatewayUrl?: string; opsPorts: Record<string, number>; run: string; dbs: Record<string, string> } = {
    opsPorts: {},
    run,
    dbs: {},
  };

  if (names.includes('ledger')) {
    const db = `t_${run}_ledger`;
    out.dbs.ledger = db;
    const cfg = parseConfig(ledgerConfigSchema, { ...common, GRPC_PORT: String(grpc.ledger), OPS_PORT: String(await freePort()), MONGO_DB: db });
    const svc = await startLedger(cfg, { logger, ackWaitMs: opts.ledgerAckWaitMs });
    out.opsPorts.ledger = svc.opsPort;
    stops.push(() => svc.stop());
  }
  if (names.includes('gateway')) {
    const cfg = parseConfig(gatewayConfigSchema, {
      ...common,
      HTTP_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      PUBLIC_BASE_URL: 'http://127.0.0.1:0',
      IDENTITY_ADDR: addr('identity'),
      TRANSACTION_ADDR: addr('transaction'),
      CEREMONY_ADDR: addr('ceremony'),
      LEDGER_ADDR: addr('ledger'),
      BILLING_ADDR: addr('billing'),
    });
    const gw = await startGateway(cfg, { logger });
    out.gatewayUrl = `http://127.0.0.1:${gw.httpPort}`;
    out.opsPorts.gateway = gw.opsPort;
    stops.unshift(() => gw.stop());
  }
  return {
    ...out,
    async stop() {
      for (const s of stops) await s();
    },
  };
}

/** Polls until fn returns a truthy value or the time runs out (for asynchronous effects, not for timing). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, stepMs = 100): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
