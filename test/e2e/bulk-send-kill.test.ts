/**
 * Issue 33's done-when for bulk send: a 1,000-row job on the local stack creates 1,000 transactions
 * with no duplicate after the transaction service is killed mid-job. Two replicas of identity,
 * billing, transaction and the gateway run as their own processes; the job (one role, test key) is
 * accepted, and once a few hundred rows are created both transaction replicas are killed with
 * SIGKILL (no shutdown hook: whatever row was in flight is cut mid-creation) and started again. The
 * job's lease expires and one replica resumes it: the job ends with 1,000 rows created, 1,000
 * distinct transactions, and the account's transaction list holds each row's signer exactly once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { startProcessStack } from '../harness/processes.js';
import { eventually, infra } from '../harness/services.js';
import { send } from '../support/http.js';

const ROWS = 1000;
const suffix = randomBytes(3).toString('hex');
const email = (n: number) => `bulk-${n}-${suffix}@example.com`;
type Job = {
  state: string;
  created: number;
  failed: number;
  not_sent: number;
  pending: number;
  results: { transaction_id?: number }[];
};

describe('bulk send survives a kill of the transaction service mid-job', () => {
  let stack: Awaited<ReturnType<typeof startProcessStack>>;
  let acct: Account;
  let key: string;
  const gw = () => stack.gatewayUrls[0]!;

  beforeAll(async () => {
    stack = await startProcessStack({
      replicas: 2,
      services: ['identity', 'billing', 'transaction', 'gateway'],
      env: {
        REFERENCE_FACE_CHECK: 'off',
        BULK_ROWS_PER_SECOND: '100',
        BULK_CONCURRENCY: '8',
        BULK_LEASE_MS: '3000',
        BULK_INTERVAL_MS: '500',
      },
    });
    acct = await createAccount(gw(), infra().MAILPIT_URL, { tag: 'bulk-kill' });
    const csrf = (await send(gw(), 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const k = await send(gw(), 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'bulk', mode: 'test' },
    });
    expect(k.status, k.text).toBe(201);
    key = k.body.key as string;
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('1,000 rows, both transaction replicas killed mid-job: 1,000 transactions, none twice', async () => {
    const tpl = await send(gw(), 'POST', '/api/templates', {
      apiKey: key,
      parts: [
        { name: 'name', value: 'Bulk' },
        { name: 'roles', value: JSON.stringify([{ name: 'client', verification: 'liveness_only' }]) },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'bulk.pdf', contentType: 'application/pdf' },
      ],
    });
    expect(tpl.status, tpl.text).toBe(201);
    const csv = `client_name,client_email\n${Array.from({ length: ROWS }, (_, n) => `Signer ${n},${email(n)}`).join('\n')}\n`;
    const started = Date.now();
    const up = await send(gw(), 'POST', `/api/templates/${tpl.body.id}/bulk`, {
      apiKey: key,
      raw: { data: Buffer.from(csv), contentType: 'text/csv' },
      headers: { 'Idempotency-Key': `kill-${suffix}` },
    });
    expect(up.status, up.text).toBe(202);
    const id = up.body.id as string;
    const job = async () => (await send(gw(), 'GET', `/api/bulk/${id}`, { apiKey: key })).body as Job;

    // Mid-job: both replicas die at once (whichever held the lease), then come back.
    const before = await eventually(async () => {
      const j = await job();
      return j.created >= 150 ? j : undefined;
    }, 120_000);
    await Promise.all([stack.kill('transaction', 0), stack.kill('transaction', 1)]);
    const killedAt = Date.now();
    await Promise.all([stack.restart('transaction', 0), stack.restart('transaction', 1)]);
    // The upload retried after the kill answers the same job and adds nothing.
    // (503 while the gateway reconnects to the restarted replicas: retried, as a client would.)
    const again = await eventually(async () => {
      const r = await send(gw(), 'POST', `/api/templates/${tpl.body.id}/bulk`, {
        apiKey: key,
        raw: { data: Buffer.from(csv), contentType: 'text/csv' },
        headers: { 'Idempotency-Key': `kill-${suffix}` },
      });
      return r.status === 503 ? undefined : r;
    }, 60_000);
    expect(again.status, again.text).toBe(202);
    expect(again.body.id).toBe(id);

    let last: Job | undefined;
    const done = await eventually(async () => {
      last = await job();
      return last.state === 'completed' ? last : undefined;
    }, 360_000).catch((err: Error) => {
      throw new Error(`${err.message}; the job: ${JSON.stringify({ ...last, results: undefined })}`);
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `bulk kill: ${before.created} rows created before the kill, job done ${((Date.now() - killedAt) / 1000).toFixed(1)} s after it, ` +
        `${seconds.toFixed(1)} s in all (${(ROWS / seconds).toFixed(1)} rows/s)`,
    );
    expect(done).toMatchObject({ created: ROWS, failed: 0, not_sent: 0, pending: 0 });
    expect(new Set(done.results.map((r) => r.transaction_id)).size).toBe(ROWS);

    // Every transaction of the account, paged: each row's signer exactly once.
    const emails: string[] = [];
    let cursor = '';
    for (;;) {
      const r = await send(gw(), 'GET', `/api/transactions?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { apiKey: key });
      expect(r.status, r.text).toBe(200);
      emails.push(...(r.body as { signer_email: string }[]).map((t) => t.signer_email));
      cursor = r.headers.get('x-next-cursor') ?? '';
      if (!cursor) break;
    }
    expect(emails).toHaveLength(ROWS);
    expect(new Set(emails).size).toBe(ROWS);
    for (let n = 0; n < ROWS; n += 97) expect(emails).toContain(email(n));
  }, 600_000);
});
