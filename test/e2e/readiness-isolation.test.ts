import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');

/**
 * Issue 19, "Readiness that isolates": one upstream down (the ledger) fails only the routes that
 * need it (503 with Retry-After, soon short-circuited by its breaker); the gateway stays ready and
 * every other route keeps answering; the ledger back, verification answers again.
 */
describe('gateway readiness and routes with the ledger stopped', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}` },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const api = (method: string, path: string, parts?: Part[]) =>
    send(stack.gatewayUrl, method, path, { apiKey: acct.apiKey, parts });
  const createTx = (pdf: Buffer) =>
    api('POST', '/api/transactions', [
      { name: 'signer_name', value: 'Ada Lovelace' },
      { name: 'signer_email', value: `ada-${randomBytes(4).toString('hex')}@example.com` },
      { name: 'document', data: pdf, filename: 'contract.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
    ]);
  const verify = (reference: string, pdf: Buffer) =>
    send(stack.gatewayUrl, 'GET', `/api/verify/${reference}/${createHash('sha256').update(pdf).digest('hex').slice(0, 16)}`);
  const readyz = async () => {
    const res = await fetch(`${stack.gatewayUrl}/readyz`);
    return { status: res.status, body: (await res.json()) as { checks: Record<string, string> } };
  };
  const metrics = async () => (await fetch(`http://127.0.0.1:${stack.opsPorts.gateway}/metrics`)).text();

  it('keeps the gateway ready and its other routes up, answers 503 + Retry-After where the ledger is needed, and recovers', async () => {
    // Baseline, every service up: the ledger answers (no certificate yet: 404).
    const before = tinyPdf(randomUUID());
    const first = await createTx(before);
    expect(first.status).toBe(201);
    expect((await verify(first.body.reference, before)).status).toBe(404);

    await stack.stopService('ledger');

    // The gateway's readiness requires only what it needs itself: Redis.
    const ready = await readyz();
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.checks)).toEqual(['redis']);

    // Routes that do not call the ledger keep answering.
    const pdf = tinyPdf(randomUUID());
    const created = await createTx(pdf);
    expect(created.status).toBe(201);
    const list = await api('GET', '/api/transactions');
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).map((t) => t.id)).toContain(created.body.id);

    // Verification needs the ledger: 503 with Retry-After and a detail, every time, quickly.
    for (let i = 0; i < 8; i++) {
      const t0 = Date.now();
      const res = await verify(created.body.reference, pdf);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(typeof res.body.detail).toBe('string');
      expect(Date.now() - t0).toBeLessThan(2000);
    }
    // After consecutive failures the ledger's circuit is open and further calls are refused at once.
    const open = await metrics();
    expect(open).toMatch(/signet_gateway_upstream_circuit_state\{[^}]*upstream="ledger"[^}]*\} 2/);
    expect(open).toMatch(/signet_gateway_upstream_circuit_state\{[^}]*upstream="transaction"[^}]*\} 0/);
    expect(open).toMatch(/signet_gateway_upstream_short_circuited_total\{[^}]*upstream="ledger"[^}]*\} [1-9]/);
    expect((await readyz()).status).toBe(200);

    // The ledger back: after the circuit's pause a trial call closes it and verification answers.
    await stack.startService('ledger');
    const back = await eventually(
      async () => {
        const res = await verify(created.body.reference, pdf);
        return res.status !== 503 && res;
      },
      30_000,
      500,
    );
    expect(back.status).toBe(404);
    expect(await metrics()).toMatch(/signet_gateway_upstream_circuit_state\{[^}]*upstream="ledger"[^}]*\} 0/);
    expect((await createTx(tinyPdf(randomUUID()))).status).toBe(201);
  });
});
