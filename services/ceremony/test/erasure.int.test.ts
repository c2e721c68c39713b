/**
 * Erasure of capture media (real ceremony captures, MinIO, FerretDB, NATS): the owner's request
 * deletes the videos and frames, drops their keys from the records (the hashes stay) and logs one
 * media_erased entry with the keys hashed; a job killed between deleting and recording, then
 * restarted, leaves nothing behind and logs once; the reconciliation deletes what a failed job left.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createLogger, createS3, listKeys } from '@signet/kit';
import { eventually } from '../../../test/harness/eventually.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { makeJpeg, makeWebm } from '../../../test/fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount } from '../../../test/support/ceremony-helpers.js';
import type { Account } from '../../../test/harness/accounts.js';
import { createErasureJob } from '../src/jobs/biometric-erasure.job.js';
import { createCaptureObjects } from '../src/store/capture.objects.js';
import { createSessionRepository, type SessionRepository } from '../src/store/session.repository.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `eras-docs-${suffix}`,
  BUCKET_REFERENCES: `eras-refs-${suffix}`,
  BUCKET_CAPTURES: `eras-caps-${suffix}`,
};
const LEASE_MS = 1_500;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('capture media erasure (ceremony, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let conn: Connection;
  let sessions: SessionRepository;
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const bucket = BUCKETS.BUCKET_CAPTURES;
  const keysOf = async (id: number) => (await listKeys(s3, bucket)).filter((k) => k.startsWith(`${id}/`)).sort();
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) => send(stack.gatewayUrl, method, path, init);
  const owner = { 'x-api-key': '' };
  const log = async (id: number) =>
    (
      (await api('GET', `/api/transactions/${id}`, { headers: owner })).body.events as {
        type: string;
        actor: string;
        detail: string;
      }[]
    ).filter((e) => e.type === 'media_erased');

  /** A transaction with one accepted capture (two objects), then cancelled (finished). */
  async function capturedAndCancelled(): Promise<{ id: number; keys: string[] }> {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    expect((await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
    const ch = await api('GET', `/api/sign/${tx.token}/challenge`);
    const dir = mkdtempSync(join(tmpdir(), 'signet-erasure-'));
    const cap = await api('POST', `/api/sign/${tx.token}/capture`, {
      parts: [
        { name: 'nonce', value: ch.body.nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: makeWebm(dir, 2) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: makeJpeg(dir) },
      ],
    });
    expect(cap.status, JSON.stringify(cap.body)).toBe(201);
    expect((await api('POST', `/api/transactions/${tx.id}/cancel`, { headers: owner })).status).toBe(200);
    const keys = await keysOf(tx.id);
    expect(keys).toHaveLength(2);
    return { id: tx.id, keys };
  }

  beforeAll(async () => {
    // The service's own job runs only when woken by a request (its timer is an hour away).
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { ...BUCKETS, ERASURE_INTERVAL_MS: '3600000', ERASURE_RECONCILE_INTERVAL_MS: '0' },
    });
    acct = await senderAccount(stack.gatewayUrl);
    owner['x-api-key'] = acct.apiKey;
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.ceremony!);
    sessions = createSessionRepository(conn);
  }, 120_000);
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  it('erases the media on the owner’s request, keeps the hashes and logs the keys hashed', async () => {
    const { id, keys } = await capturedAndCancelled();
    const before = (await sessions.get(`${id}:0`))!.captures[0]!;
    expect((await api('DELETE', `/api/transactions/${id}/biometrics`, { headers: owner })).status).toBe(204);
    await eventually(async () => (await keysOf(id)).length === 0, 30_000);
    const after = await eventually(async () => {
      const s = await sessions.get(`${id}:0`);
      return s?.erased_at ? s : undefined;
    }, 30_000);
    expect(after.erasure).toMatchObject({ reason: 'sender' });
    expect(after.captures[0]).toMatchObject({
      video_key: '',
      frame_key: '',
      video_sha256: before.video_sha256,
      frame_sha256: before.frame_sha256,
    });
    const entries = await eventually(async () => ((await log(id)).length ? log(id) : undefined), 30_000);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'sender' });
    for (const k of keys) expect(entries[0]!.detail).toContain(sha(k));
    expect(entries[0]!.detail).not.toContain(keys[0]!);
  }, 120_000);

  it('a job killed between deleting and recording, restarted, leaves nothing and logs once; reconciliation catches leftovers', async () => {
    const { id, keys } = await capturedAndCancelled();
    // The request as the consumer records it, without waking the service's job: the test's jobs do the work.
    await sessions.requestErasure(id, 'retention', new Date());
    const base = {
      sessions,
      captures: createCaptureObjects(s3, bucket),
      s3,
      bucket,
      logger: createLogger('test', 'silent'),
      now: Date.now,
      onOutbox: () => undefined,
      onOverdue: () => undefined,
      leaseMs: LEASE_MS,
      intervalMs: 0,
      reconcileIntervalMs: 0,
    };
    let erased = 0;
    const killed = createErasureJob({
      ...base,
      onErased: () => void erased++,
      afterDelete: async () => {
        throw new Error('killed');
      },
    });
    await killed.run();
    await killed.stop();
    expect(await keysOf(id)).toEqual([]);
    expect((await sessions.get(`${id}:0`))!.erased_at).toBeNull();

    const dead = await sessions.model.findById(`${id}:0`).lean<{ erasure_lease_until: Date }>();
    expect(dead!.erasure_lease_until).toBeInstanceOf(Date);

    // Restarted, next to another replica: once the dead claim expires, exactly one of them completes it.
    const restarted = createErasureJob({ ...base, onErased: () => void erased++ });
    const other = createErasureJob({ ...base, onErased: () => void erased++ });
    const done = await eventually(
      async () => {
        await Promise.all([restarted.run(), other.run()]);
        return (await sessions.get(`${id}:0`))!.erased_at;
      },
      30_000,
      200,
    );
    expect(done!.getTime()).toBeGreaterThanOrEqual(new Date(dead!.erasure_lease_until).getTime());
    expect(erased).toBe(1);
    await other.stop();
    const entries = await eventually(async () => ((await log(id)).length ? log(id) : undefined), 30_000);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.detail).toContain(`signer 0: 2 capture object(s)`);
    for (const k of keys) expect(entries[0]!.detail).toContain(sha(k));

    // An object of an erased session that is still stored (a job that failed): the reconciliation deletes and counts it.
    await s3.putObject(bucket, keys[0]!, Buffer.from('left behind'), 11);
    let overdue = 0;
    const reconciler = createErasureJob({ ...base, onErased: () => undefined, onOverdue: (n) => void (overdue += n) });
    expect(await reconciler.reconcile()).toBe(1);
    expect(overdue).toBe(1);
    expect(await keysOf(id)).toEqual([]);
    expect(await reconciler.reconcile()).toBe(0);
    await restarted.stop();
    await reconciler.stop();
    expect((await log(id)).length).toBe(1);
  }, 120_000);
});
