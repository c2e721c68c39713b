/**
 * The lifecycle timer job of the transaction service (real transaction, FerretDB, NATS, Mailpit): a
 * replica killed holding a due reminder's claim leaves it to expire, and the reminder then goes out
 * once; replicas racing on the same due record (separate processes' locks, one store) send it once.
 */
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createKeyedLock, createLogger, Metrics } from '@signet/kit';
import { eventually } from '../../../test/harness/eventually.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { send, senderAccount } from '../../../test/support/ceremony-helpers.js';
import type { Account } from '../../../test/harness/accounts.js';
import { pngPhoto, tinyPdf } from '../../../test/fixtures/documents.js';
import { transactionMetrics } from '../src/metrics.js';
import { createTimerStore } from '../src/store/timers.repository.js';
import { createTransactionRepository, type TransactionRepository } from '../src/store/transaction.repository.js';
import { runLifecycleTimer } from '../src/usecases/run-lifecycle-timer.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `txt-docs-${suffix}`, BUCKET_REFERENCES: `txt-refs-${suffix}` };

describe('lifecycle timers (transaction, FerretDB, NATS, Mailpit)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let conn: Connection;
  let repo: TransactionRepository;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: { ...BUCKETS, TIMER_INTERVAL_MS: '300', TIMER_LEASE_MS: '1500', REMINDER_MAX: '0' },
    });
    acct = await senderAccount(stack.gatewayUrl);
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
    repo = createTransactionRepository(conn);
  }, 120_000);
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  async function created(firstAfterSeconds: number) {
    const email = `signer-${Math.random().toString(16).slice(2, 10)}@example.com`;
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: email },
        { name: 'reminder_first_after_seconds', value: String(firstAfterSeconds) },
        { name: 'reminder_every_seconds', value: '3600' },
        { name: 'reminder_max', value: '1' },
        { name: 'document', data: tinyPdf('timers'), filename: 'contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
      ],
    });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id as number, email };
  }
  const reminderMails = async (to: string) => {
    const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
    const found = ((await res.json()) as { messages?: { Subject: string }[] }).messages ?? [];
    return found.filter((m) => m.Subject.startsWith('Reminder:')).length;
  };
  const requested = async (id: number) => (await repo.findById(id))!.log.filter((e) => e.type === 'reminder_requested');

  it('a replica killed holding a due reminder: sent once, after its claim expired', async () => {
    const { id, email } = await created(2);
    const timers = createTimerStore(repo.model);
    const due = (await repo.findById(id))!.reminder_due_at!;
    // What a replica leaves when killed after claiming the due timer, before its write.
    const claimedAt = new Date(due.getTime() + 1);
    const until = new Date(claimedAt.getTime() + 5_000);
    expect(await timers.claimTimer(id, 'killed-replica', claimedAt, until)).not.toBeNull();
    const entries = await eventually(async () => {
      const e = await requested(id);
      return e.length ? e : undefined;
    }, 30_000);
    expect(new Date(entries[0]!.at).getTime()).toBeGreaterThanOrEqual(until.getTime());
    await eventually(async () => (await reminderMails(email)) === 1, 15_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await requested(id)).toHaveLength(1);
    expect(await reminderMails(email)).toBe(1);
    const rec = (await repo.findById(id))!;
    expect(rec).toMatchObject({ reminders_sent: 1, reminder_due_at: null, timer_lease: null });
  }, 60_000);

  it('replicas racing on one due record send its reminder once', async () => {
    await stack.stopService('transaction'); // only the racing "replicas" below run the timer
    try {
      const { id } = await (async () => {
        await stack.startService('transaction');
        const c = await created(1);
        await stack.stopService('transaction');
        return c;
      })();
      await new Promise((r) => setTimeout(r, 1200));
      const tm = transactionMetrics(new Metrics('timers-test'));
      const replica = () => ({
        repo,
        timers: createTimerStore(repo.model),
        tm,
        lock: createKeyedLock<number>(),
        outbox: { flush: async () => undefined },
        clock: () => new Date(),
        leaseMs: 5_000,
        logger: createLogger('timers-test', 'silent'),
      });
      const results = await Promise.all(Array.from({ length: 4 }, () => runLifecycleTimer(replica(), id)));
      expect(results.filter((r) => r === 'reminded')).toHaveLength(1);
      expect(await requested(id)).toHaveLength(1);
      expect((await repo.findById(id))!.reminders_sent).toBe(1);
    } finally {
      await stack.startService('transaction');
    }
  }, 60_000);
});
