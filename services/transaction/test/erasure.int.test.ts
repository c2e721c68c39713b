/**
 * The retention job of the transaction service (real transaction, MinIO, FerretDB, NATS): when a
 * finished transaction's retention ends (three one-second days here), its reference photo is deleted,
 * its key dropped (the hash the certificate commits to stays) and one biometrics_erased entry logged
 * with the key hashed; a replica killed holding the claim leaves it to expire, and the job then
 * finishes the erasure once. An account's own retention, set at identity, reaches the transactions it
 * creates afterwards (identity.settings.changed), bounded by the operator's maximum.
 */
import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createClient, createS3, listKeys, Metrics } from '@signet/kit';
import { identityV1 } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { createTransaction, send, senderAccount } from '../../../test/support/ceremony-helpers.js';
import type { Account } from '../../../test/harness/accounts.js';
import { createTransactionRepository, type TransactionRepository } from '../src/store/transaction.repository.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `txe-docs-${suffix}`, BUCKET_REFERENCES: `txe-refs-${suffix}` };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('biometric retention job (transaction, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let conn: Connection;
  let repo: TransactionRepository;
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const refs = async () => listKeys(s3, BUCKETS.BUCKET_REFERENCES);
  const erasedEntries = async (id: number) => (await repo.findById(id))!.log.filter((e) => e.type === 'biometrics_erased');

  async function finished(): Promise<{ id: number; key: string; refSha: string }> {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    const cancel = await send(stack.gatewayUrl, 'POST', `/api/transactions/${tx.id}/cancel`, {
      headers: { 'x-api-key': acct.apiKey },
    });
    expect(cancel.status).toBe(200);
    const rec = (await repo.findById(tx.id))!;
    expect(rec.retention_days).toBe(3);
    expect(rec.biometrics_delete_after).toBeInstanceOf(Date);
    expect(await refs()).toContain(rec.reference_key);
    return { id: tx.id, key: rec.reference_key, refSha: rec.reference_sha256 };
  }

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        ...BUCKETS,
        BIOMETRIC_RETENTION_DAYS: '3',
        BIOMETRIC_RETENTION_DAY_SECONDS: '1',
        ERASURE_INTERVAL_MS: '300',
        ERASURE_LEASE_MS: '1500',
        BIOMETRIC_RETENTION_MAX_DAYS: '10',
      },
    });
    acct = await senderAccount(stack.gatewayUrl);
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
    repo = createTransactionRepository(conn);
  }, 120_000);
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  it('erases the reference photo when the retention ends, keeps its hash and logs the key hashed', async () => {
    const { id, key, refSha } = await finished();
    const rec = await eventually(async () => {
      const r = await repo.findById(id);
      return r?.biometrics_erased_at ? r : undefined;
    }, 30_000);
    expect(rec.biometrics_erased_at!.getTime()).toBeGreaterThanOrEqual(rec.biometrics_delete_after!.getTime());
    expect(await refs()).not.toContain(key);
    expect(rec.reference_key).toBe('');
    expect(rec.reference_sha256).toBe(refSha);
    const entries = await erasedEntries(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'system', detail: `reference photo (key sha256 ${sha(key)}); reason retention` });
  }, 60_000);

  it('a replica killed holding the claim: the job finishes after the claim expires, and logs once', async () => {
    const { id, key } = await finished();
    // What a replica leaves when killed after claiming and deleting, before recording.
    const now = new Date();
    expect(await repo.claimErasure(id, 'killed-replica', now, new Date(now.getTime() + 4_000))).not.toBeNull();
    await s3.removeObject(BUCKETS.BUCKET_REFERENCES, key);
    const rec = await eventually(async () => {
      const r = await repo.findById(id);
      return r?.biometrics_erased_at ? r : undefined;
    }, 30_000);
    // Not before the dead claim expired.
    expect(rec.biometrics_erased_at!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 4_000);
    expect(rec.erasure_lease).toBeNull();
    expect(await erasedEntries(id)).toHaveLength(1);
    // Later passes change nothing.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await erasedEntries(id)).toHaveLength(1);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
    expect(metrics).toMatch(/signet_transaction_biometric_erasures_total\{[^}]*reason="retention"[^}]*\} 2\n/);
  }, 60_000);

  it('an account’s retention set at identity applies to the transactions it creates next, within the maximum', async () => {
    const other = await senderAccount(stack.gatewayUrl);
    const identity = createClient(identityV1.IdentityServiceClient, stack.env.IDENTITY_ADDR!, {
      metrics: new Metrics('retention-test'),
    });
    try {
      const bad = identity.updateAccountSettings({ userId: other.userId, sessionTtlHours: 0, biometricRetentionDays: 11 });
      await expect(bad).rejects.toMatchObject({ message: expect.stringMatching(/from 0 to 10/) });
      const p = await identity.updateAccountSettings({ userId: other.userId, sessionTtlHours: 0, biometricRetentionDays: 7 });
      expect(p).toMatchObject({ biometricRetentionDays: 7, sessionTtlHours: 24 });
      expect((await identity.getProfile({ userId: acct.userId })).biometricRetentionDays).toBe(3);
    } finally {
      identity.close();
    }
    await eventually(async () => (await repo.accountRetention(other.userId)) === 7, 15_000);
    const tx = await createTransaction(stack.gatewayUrl, other, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    expect((await repo.findById(tx.id))!.retention_days).toBe(7);
    // Another account keeps the default; an older value arriving late changes nothing.
    await repo.setAccountRetention(other.userId, 1, new Date(0));
    expect(await repo.accountRetention(other.userId)).toBe(7);
    expect(await repo.accountRetention(acct.userId)).toBeUndefined();
  }, 60_000);
});
