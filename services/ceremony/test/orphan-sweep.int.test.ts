import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createLogger, createS3, listKeys, Metrics } from '@signet/kit';
import { infra, startServices } from '../../../test/harness/services.js';
import { makeJpeg, makeWebm } from '../../../test/fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../../../test/support/ceremony-helpers.js';
import { createSessionRepository } from '../src/store/session.repository.js';
import { createOrphanSweep } from '../src/jobs/orphan.sweep.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `orph-docs-${suffix}`,
  BUCKET_REFERENCES: `orph-refs-${suffix}`,
  BUCKET_CAPTURES: `orph-caps-${suffix}`,
};
const MIN_AGE_MS = 3_000;

describe('orphan capture sweep (real ceremony capture, MinIO, FerretDB)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let tx: CreatedTx;
  let conn: Connection;
  let accepted: string[] = [];
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const bucket = BUCKETS.BUCKET_CAPTURES;
  const put = (key: string) => s3.putObject(bucket, key, Buffer.from('left by a crash'), 15);
  const keys = async () => (await listKeys(s3, bucket)).sort();

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    const acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
      send(stack.gatewayUrl, method, path, init);
    expect((await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
    const ch = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(ch.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'signet-orphans-'));
    const cap = await api('POST', `/api/sign/${tx.token}/capture`, {
      parts: [
        { name: 'nonce', value: ch.body.nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: makeWebm(dir, 2) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: makeJpeg(dir) },
      ],
    });
    expect(cap.status, JSON.stringify(cap.body)).toBe(201);
    accepted = [`${tx.id}/0/${cap.body.capture_id}/frame.jpg`, `${tx.id}/0/${cap.body.capture_id}/video.webm`];
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.ceremony!);
  });
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  it('removes only objects no capture record points to, once they are older than the minimum age', async () => {
    expect(await keys()).toEqual(accepted);
    // What a crash between upload and record leaves: an unrecorded capture of a live session, and one of
    // a session that was never recorded at all.
    const orphanOfSession = `${tx.id}/0/${randomUUID()}/video.webm`;
    const orphanNoSession = `${tx.id + 1_000_000}/0/${randomUUID()}/frame.jpg`;
    const foreign = 'notes/not-a-capture.txt';
    await Promise.all([put(orphanOfSession), put(orphanNoSession), put(foreign)]);
    // A multipart upload a crash left unfinished (stored, but invisible to listing), and one outside the layout.
    const abandoned = `${tx.id}/0/${randomUUID()}/video.webm`;
    await s3.initiateNewMultipartUpload(bucket, abandoned, {});
    await s3.initiateNewMultipartUpload(bucket, 'notes/big-upload.bin', {});
    await new Promise((r) => setTimeout(r, MIN_AGE_MS + 1_000));
    // An upload in flight (no record yet, younger than the minimum age) is never touched.
    const inFlight = `${tx.id}/0/${randomUUID()}/video.webm`;
    await put(inFlight);
    const inFlightMultipart = `${tx.id}/0/${randomUUID()}/video.webm`;
    await s3.initiateNewMultipartUpload(bucket, inFlightMultipart, {});
    const incomplete = async () => (await s3.listIncompleteUploadsQuery(bucket, '', '', '', '')).uploads.map((u) => u.key).sort();
    expect(await incomplete()).toEqual([abandoned, inFlightMultipart, 'notes/big-upload.bin'].sort());

    const metrics = new Metrics('ceremony-sweep-test');
    const sweep = createOrphanSweep({
      s3,
      bucket,
      sessions: createSessionRepository(conn),
      minAgeMs: MIN_AGE_MS,
      metrics,
      logger: createLogger('test', 'silent'),
      batchSize: 2,
    });
    // Two triggers in one process share one pass.
    const [a, b] = [sweep.runOnce(), sweep.runOnce()];
    expect(a).toBe(b);
    const r = await a;
    expect(r).toEqual({ scanned: 6, candidates: 4, removed: 2, unknownLayout: 1, abortedUploads: 1 });
    expect(await keys()).toEqual([...accepted, inFlight, foreign].sort());
    expect(await incomplete()).toEqual([inFlightMultipart, 'notes/big-upload.bin'].sort());
    expect(await metrics.registry.metrics()).toMatch(/signet_ceremony_orphans_removed_total\{[^}]*\} 2\n/);
    expect(await metrics.registry.metrics()).toMatch(/signet_ceremony_incomplete_uploads_aborted_total\{[^}]*\} 1\n/);

    // Idempotent: a second pass (or another replica's) finds nothing more to remove.
    expect(await sweep.runOnce()).toMatchObject({ removed: 0, abortedUploads: 0 });
    expect(await keys()).toEqual([...accepted, inFlight, foreign].sort());
    await sweep.stop();

    // The service runs its own sweep and exposes the counter.
    const served = await (await fetch(`http://127.0.0.1:${stack.opsPorts.ceremony}/metrics`)).text();
    expect(served).toMatch(/signet_ceremony_orphans_removed_total/);
  });
});
