/**
 * Deleting a whole finished transaction and the legal hold (issue 21 item 3), through the gateway on
 * real identity, billing, transaction, MinIO, FerretDB and NATS: the document and reference photo
 * leave their buckets, the record becomes a tombstone without personal data whose log proves the
 * deletion, and the transaction is gone from the API; a pending or held transaction is refused with
 * nothing changed; the hold also suspends the retention job and the owner's biometric erasure, and
 * once released both apply again (the ledger's and the ceremony's part: test/e2e/deletion.test.ts).
 */
import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createS3, listKeys } from '@signet/kit';
import { eventually } from '../../../test/harness/eventually.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { createTransaction, send, senderAccount } from '../../../test/support/ceremony-helpers.js';
import type { Account } from '../../../test/harness/accounts.js';
import { createTransactionRepository, type TransactionRepository } from '../src/store/transaction.repository.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = { BUCKET_DOCUMENTS: `txd-docs-${suffix}`, BUCKET_REFERENCES: `txd-refs-${suffix}` };
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Retention: 6 days of one second each, so a hold can be seen outlasting it. */
const RETENTION_S = 6;

describe('deleting a whole transaction, and the legal hold (transaction, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  let conn: Connection;
  let repo: TransactionRepository;
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const call = (method: string, path: string, key = acct.apiKey, json?: unknown) =>
    send(stack.gatewayUrl, method, path, { headers: { 'x-api-key': key }, ...(json === undefined ? {} : { json }) });
  const stored = async () => [
    ...(await listKeys(s3, BUCKETS.BUCKET_DOCUMENTS)),
    ...(await listKeys(s3, BUCKETS.BUCKET_REFERENCES)),
  ];

  async function cancelled() {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    expect((await call('POST', `/api/transactions/${tx.id}/cancel`)).status).toBe(200);
    const rec = (await repo.findById(tx.id))!;
    const keys = [rec.document_key, rec.reference_key];
    expect(await stored()).toEqual(expect.arrayContaining(keys));
    return { ...tx, rec, keys };
  }

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        ...BUCKETS,
        BIOMETRIC_RETENTION_DAYS: String(RETENTION_S),
        BIOMETRIC_RETENTION_DAY_SECONDS: '1',
        ERASURE_INTERVAL_MS: '300',
        ERASURE_LEASE_MS: '1500',
      },
    });
    acct = await senderAccount(stack.gatewayUrl);
    other = await senderAccount(stack.gatewayUrl);
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
    repo = createTransactionRepository(conn);
  }, 120_000);
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  it('deletes a finished transaction: objects gone, a tombstone without personal data, gone from the API', async () => {
    const tx = await cancelled();
    expect((await call('DELETE', `/api/transactions/${tx.id}`, other.apiKey)).status).toBe(404);
    expect((await call('DELETE', '/api/transactions/not-an-id')).status).toBe(404);
    expect((await repo.findById(tx.id))!.deleted_at).toBeNull();

    const del = await call('DELETE', `/api/transactions/${tx.id}`);
    expect(del.status, del.text).toBe(204);
    const listed = await stored();
    for (const key of tx.keys) expect(listed).not.toContain(key);

    const t = (await repo.findById(tx.id))!;
    expect(t.deleted_at).toBeInstanceOf(Date);
    expect(t.ended_at).toBeInstanceOf(Date);
    expect(t).toMatchObject({ owner_id: acct.userId, reference: tx.rec.reference, document_sha256: tx.rec.document_sha256 });
    expect(t.biometrics_erased_at).toBeInstanceOf(Date);
    const text = JSON.stringify(t);
    for (const personal of [tx.signerEmail, 'Ada Lovelace', tx.token, ...tx.keys]) expect(text).not.toContain(personal);
    const entry = t.log.find((e) => e.type === 'transaction_deleted')!;
    expect(entry).toMatchObject({ actor: 'sender' });
    expect(entry.detail).toContain(`2 stored object(s) (key sha256 ${tx.keys.map(sha).join(', ')})`);
    expect(entry.detail).toMatch(/reason sender$/);
    // gone from the API: detail, list, actions, a second DELETE
    expect((await call('GET', `/api/transactions/${tx.id}`)).status).toBe(404);
    const list = await call('GET', '/api/transactions?limit=100');
    expect((list.body as { id: number }[]).map((s) => s.id)).not.toContain(tx.id);
    expect((await call('DELETE', `/api/transactions/${tx.id}`)).status).toBe(404);
    expect((await call('PUT', `/api/transactions/${tx.id}/legal-hold`, acct.apiKey, {})).status).toBe(404);
    expect((await call('DELETE', `/api/transactions/${tx.id}/biometrics`)).status).toBe(404);
    // the signing token no longer resolves
    expect(await repo.resolveToken(tx.token)).toBeNull();
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
    expect(metrics).toMatch(/signet_transaction_deletions_total\{[^}]*reason="sender"[^}]*\} 1\n/);
  }, 60_000);

  it('refuses a pending transaction with 409 and changes nothing', async () => {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    const before = (await repo.findById(tx.id))!;
    const r = await call('DELETE', `/api/transactions/${tx.id}`);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/still in progress; cancel it first/);
    const after = (await repo.findById(tx.id))!;
    expect(after.version).toBe(before.version);
    expect(after.deleted_at).toBeNull();
    expect(await stored()).toEqual(expect.arrayContaining([before.document_key, before.reference_key]));
    expect((await call('GET', `/api/transactions/${tx.id}`)).status).toBe(200);
  }, 60_000);

  it('a held transaction: 409 for deletion and erasure, the retention job waits; released, both apply again', async () => {
    const tx = await cancelled();
    // bad input and another account change nothing
    const long = await call('PUT', `/api/transactions/${tx.id}/legal-hold`, acct.apiKey, { reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.detail).toMatch(/reason/);
    expect((await call('PUT', `/api/transactions/${tx.id}/legal-hold`, acct.apiKey, { reason: 1 })).status).toBe(400);
    expect((await call('PUT', `/api/transactions/${tx.id}/legal-hold`, other.apiKey, { reason: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/api/transactions/${tx.id}/legal-hold`, other.apiKey)).status).toBe(404);
    expect((await call('GET', `/api/transactions/${tx.id}`)).body.legal_hold).toBeNull();

    const held = await call('PUT', `/api/transactions/${tx.id}/legal-hold`, acct.apiKey, { reason: 'litigation 2026-17' });
    expect(held.status, held.text).toBe(200);
    expect(held.body).toEqual({ since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), reason: 'litigation 2026-17' });
    // holding again keeps the first hold
    const again = await call('PUT', `/api/transactions/${tx.id}/legal-hold`);
    expect(again.body).toEqual(held.body);
    expect((await call('GET', `/api/transactions/${tx.id}`)).body.legal_hold).toEqual(held.body);

    const del = await call('DELETE', `/api/transactions/${tx.id}`);
    expect(del.status).toBe(409);
    expect(del.body.detail).toMatch(/legal hold since .*release the hold first/);
    expect((await call('DELETE', `/api/transactions/${tx.id}/biometrics`)).status).toBe(409);
    // the retention ends while held: nothing is erased
    await new Promise((r) => setTimeout(r, (RETENTION_S + 2) * 1000));
    const kept = (await repo.findById(tx.id))!;
    expect(kept.biometrics_erased_at).toBeNull();
    expect(kept.deleted_at).toBeNull();
    expect(await stored()).toEqual(expect.arrayContaining(tx.keys));

    expect((await call('DELETE', `/api/transactions/${tx.id}/legal-hold`)).status).toBe(204);
    expect((await call('DELETE', `/api/transactions/${tx.id}/legal-hold`)).status).toBe(204);
    const log = (await call('GET', `/api/transactions/${tx.id}`)).body.events as { type: string }[];
    expect(log.filter((e) => e.type === 'legal_hold_set')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'legal_hold_released')).toHaveLength(1);
    // released: the overdue erasure runs, and the transaction can be deleted
    await eventually(async () => ((await repo.findById(tx.id))!.biometrics_erased_at ? true : undefined), 15_000);
    expect((await call('DELETE', `/api/transactions/${tx.id}`)).status).toBe(204);
    expect(await stored()).not.toContain(tx.keys[0]);
  }, 90_000);

  it('a pending transaction can be held too', async () => {
    // (another account: a free account's quota is three)
    const tx = await createTransaction(stack.gatewayUrl, other, 'Alan Turing', stack.env.TRANSACTION_ADDR);
    const key = other.apiKey;
    expect((await call('PUT', `/api/transactions/${tx.id}/legal-hold`, key)).body).toMatchObject({ reason: '' });
    expect((await call('POST', `/api/transactions/${tx.id}/cancel`, key)).status).toBe(200);
    const del = await call('DELETE', `/api/transactions/${tx.id}`, key);
    expect(del.status).toBe(409);
    expect(del.body.detail).toMatch(/legal hold/);
  }, 60_000);
});
