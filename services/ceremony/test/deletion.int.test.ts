/**
 * The ceremony's part of deleting a whole transaction (issue 21 item 3), on real identity, billing,
 * transaction, ceremony, MinIO, FerretDB and NATS: the owner's DELETE while the ceremony is down (its
 * consumers killed) is applied once it runs again — the capture videos and frames leave the bucket
 * (the erasure path, reason sender, logged on the transaction's tombstone), each session loses the
 * signer's e-mail and the recorded addresses and browsers, and the forensic batches go. Redelivering
 * the deletion changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, connectMongo, createS3, listKeys, publishEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { makeJpeg, makeWebm } from '../../../test/fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount } from '../../../test/support/ceremony-helpers.js';
import type { Account } from '../../../test/harness/accounts.js';
import { createForensicRepository } from '../src/store/forensic.repository.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `cdel-docs-${suffix}`,
  BUCKET_REFERENCES: `cdel-refs-${suffix}`,
  BUCKET_CAPTURES: `cdel-caps-${suffix}`,
};
const IP = '10.81.0.7';
const UA = 'SignetDeletionTest/1.0';

describe('deleting a transaction reaches the ceremony (ceremony, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let ceremonyDb: Connection;
  let transactionDb: Connection;
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const keysOf = async (id: number) => (await listKeys(s3, BUCKETS.BUCKET_CAPTURES)).filter((k) => k.startsWith(`${id}/`));
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) => send(stack.gatewayUrl, method, path, init);
  const owner = { 'x-api-key': '' };
  const session = (id: number) => ceremonyDb.collection('sessions').findOne({ _id: `${id}:0` as never });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { ...BUCKETS, ERASURE_INTERVAL_MS: '1000', ERASURE_RECONCILE_INTERVAL_MS: '0' },
    });
    acct = await senderAccount(stack.gatewayUrl);
    owner['x-api-key'] = acct.apiKey;
    ceremonyDb = await connectMongo(infra().MONGO_URL, stack.dbs.ceremony!);
    transactionDb = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
  }, 120_000);
  afterAll(async () => {
    await ceremonyDb?.close();
    await transactionDb?.close();
    await stack?.stop();
  });

  it('erases the media and the sessions’ personal data once the ceremony runs again; a redelivery changes nothing', async () => {
    // A transaction with one accepted capture (two objects) and a forensic batch, then cancelled.
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    const client = { 'x-forwarded-for': IP, 'user-agent': UA };
    const consent = await api('POST', `/api/sign/${tx.token}/consent`, {
      headers: client,
      json: { consent_text_version: 'consent-v1' },
    });
    expect(consent.status).toBe(201);
    const ch = await api('GET', `/api/sign/${tx.token}/challenge`, { headers: client });
    const dir = mkdtempSync(join(tmpdir(), 'signet-deletion-'));
    const cap = await api('POST', `/api/sign/${tx.token}/capture`, {
      headers: client,
      parts: [
        { name: 'nonce', value: ch.body.nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: makeWebm(dir, 2) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: makeJpeg(dir) },
      ],
    });
    expect(cap.status, JSON.stringify(cap.body)).toBe(201);
    await createForensicRepository(ceremonyDb).append({
      session_id: `${tx.id}:0`,
      batch: 1,
      received_at: new Date(),
      ip: IP,
      user_agent: UA,
      events: [{ type: 'focus' }],
    });
    expect((await api('POST', `/api/transactions/${tx.id}/cancel`, { headers: owner })).status).toBe(200);
    expect(await keysOf(tx.id)).toHaveLength(2);
    const before = JSON.stringify(await session(tx.id));
    expect(before).toContain(tx.signerEmail);

    // Deleted while the ceremony is down; it catches up when it starts again.
    await stack.stopService('ceremony');
    expect((await api('DELETE', `/api/transactions/${tx.id}`, { headers: owner })).status).toBe(204);
    expect(await keysOf(tx.id)).toHaveLength(2);
    await stack.startService('ceremony');

    await eventually(async () => ((await keysOf(tx.id)).length === 0 ? true : undefined), 30_000);
    const s = await eventually(async () => {
      const x = await session(tx.id);
      return x?.personal_data_deleted_at && x.erased_at ? x : undefined;
    }, 30_000);
    const text = JSON.stringify(s);
    for (const personal of [tx.signerEmail, IP, UA]) expect(text).not.toContain(personal);
    expect(s.erasure).toMatchObject({ reason: 'sender' });
    // what the certificate committed to stays
    expect(s.captures[0]).toMatchObject({ video_key: '', frame_key: '', video_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(s.consent).toMatchObject({ text_version: 'consent-v1', ip: '', user_agent: '' });
    expect(await ceremonyDb.collection('forensic_batches').countDocuments({ session_id: `${tx.id}:0` })).toBe(0);
    // The media erasure is logged on the transaction's tombstone, with reason sender.
    const tomb = await eventually(async () => {
      const t = await transactionDb.collection('transactions').findOne({ _id: tx.id as never });
      return (t?.log as { type: string }[] | undefined)?.some((e) => e.type === 'media_erased') ? t : undefined;
    }, 30_000);
    const entries = (tomb.log as { type: string; detail: string }[]).filter((e) => e.type === 'media_erased');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.detail).toMatch(/^signer 0: 2 capture object\(s\).*; reason sender$/);

    // The same event again (a redelivery): nothing changes.
    const bus = await connectBus(infra().NATS_URL, 'deletion-test');
    try {
      const eventId = randomUUID();
      const payload = events.transactionDeleted.message
        .encode({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: tx.id,
          reference: String(tomb.reference),
          reason: 'sender',
          test: false,
          ownerId: '',
          actorId: '',
          ip: '',
          userAgent: '',
        })
        .finish();
      await publishEvent(bus, events.transactionDeleted, { eventId, payload });
    } finally {
      await bus.nc.drain();
    }
    await new Promise((r) => setTimeout(r, 1500));
    const again = await session(tx.id);
    expect(again!.personal_data_deleted_at).toBeInstanceOf(Date);
    // (the outbox and claim fields move on their own; the personal data and media fields do not)
    const kept = (x: typeof s) => JSON.stringify([x.signer_email, x.consent, x.captures, x.erased_at]);
    expect(kept(again!)).toBe(kept(s));
  }, 120_000);
});
