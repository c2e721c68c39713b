/**
 * What the transaction service keeps of the signers list's reference photos (issue 18), read from its
 * own database and buckets: each face-match signer's own photo under its own key with its SHA-256, the
 * viewers beside the signers, and nothing at all — no object, no record, no used signature — after a
 * refusal of a group photo by biometrics' face count. test/e2e/signers.test.ts checks the same
 * through the public API only.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, listKeys } from '@signet/kit';
import { createAccount, type Account } from '../../../test/harness/accounts.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { send } from '../../../test/support/http.js';
import { makeGenuineCapture } from '../../biometrics/test/corpus/make-corpus.js';
import { packagePhotos } from '../../biometrics/test/corpus/faces.js';
import { createObjectStore } from '../src/store/object.store.js';
import { createTransactionRepository, type TransactionRecord } from '../src/store/transaction.repository.js';
import { tinyPdf } from './fixtures.js';

const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `sp-docs-${suffix}`, BUCKET_REFERENCES: `sp-refs-${suffix}` };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('signer photos at rest (real identity, billing, biometrics, MinIO, FerretDB)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let conn: Connection;
  let objects: ReturnType<typeof createObjectStore>;
  let acct: Account;
  let dir: string;
  let face: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-signer-photos-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'biometrics', 'gateway'], { env: BUCKETS });
    conn = await connectMongo(infra().MONGO_URL, stack.dbs.transaction!);
    objects = createObjectStore({
      ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
      S3_REGION: 'us-east-1',
      ...BUCKETS,
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'photos' });
    face = readFileSync((await makeGenuineCapture(join(dir, 'ref'), null)).reference);
  }, 300_000);
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const used = async () =>
    (await send(stack.gatewayUrl, 'POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  const records = () => conn.collection('transactions').countDocuments({ owner_id: acct.userId });
  const keys = async () => [
    ...(await listKeys(objects.client, BUCKETS.BUCKET_DOCUMENTS)),
    ...(await listKeys(objects.client, BUCKETS.BUCKET_REFERENCES)),
  ];
  const create = (signers: unknown[], photos: Buffer[]) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signers', value: JSON.stringify(signers) },
        { name: 'document', filename: 'a.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
        ...photos.map((data, i) => ({ name: `signer_photo_${i}`, filename: `${i}.jpg`, contentType: 'image/jpeg', data })),
      ],
    });

  it('a group photo is refused after it was stored for the count: the photos and the document are removed, no record, no quota', async () => {
    const before = await used();
    const r = await create(
      [
        { name: 'Ada', email: `ada-${suffix}@example.com` },
        { name: 'Group', email: `group-${suffix}@example.com`, order: 2 },
      ],
      [face, readFileSync(packagePhotos()[0]!.file)],
    );
    expect(r.status, r.text).toBe(400);
    expect(r.body.detail).toMatch(/^signers\[1\] \(group-.*\): signer_photo_1: the reference photo shows more than one face/);
    expect(await keys()).toEqual([]);
    expect(await records()).toBe(0);
    expect(await used()).toBe(before);
  }, 120_000);

  it("keeps each face-match signer's own photo under its own key, and the viewers beside the signers", async () => {
    const photos = [
      face,
      Buffer.concat([face.subarray(0, 2), Buffer.from([0xff, 0xfe, 0x00, 0x05, 0x62, 0x6f, 0x62]), face.subarray(2)]),
    ];
    const r = await create(
      [
        { name: 'Ada', email: `ada2-${suffix}@example.com` },
        { name: 'Bob', email: `bob-${suffix}@example.com`, order: 2, role: 'approver' },
        { name: 'Cy', email: `cy-${suffix}@example.com`, order: 2, verification: 'liveness_only', webauthn: true },
        { name: 'Vi', email: `vi-${suffix}@example.com`, role: 'viewer', order: 3 },
      ],
      photos,
    );
    expect(r.status, r.text).toBe(201);
    const rec = (await conn.collection('transactions').findOne({ _id: r.body.id as never })) as unknown as TransactionRecord;
    expect(rec.signers.map((s) => [s.role, s.order, s.verification_mode, s.webauthn])).toEqual([
      ['signer', 1, 'biometric', false],
      ['approver', 2, 'biometric', false],
      ['signer', 2, 'liveness', true],
    ]);
    expect(rec.viewers).toEqual([{ name: 'Vi', email: `vi-${suffix}@example.com`, order: 3 }]);
    expect(rec.signers.map((s) => s.reference_sha256)).toEqual([sha(photos[0]!), sha(photos[1]!), '']);
    const [k0, k1] = rec.signers.map((s) => s.reference_key);
    expect(k0).not.toBe(k1);
    expect(rec.reference_key).toBe(k0);
    for (const [key, photo] of [
      [k0!, photos[0]!],
      [k1!, photos[1]!],
    ] as const) {
      const chunks: Buffer[] = [];
      for await (const c of await objects.client.getObject(BUCKETS.BUCKET_REFERENCES, key)) chunks.push(c as Buffer);
      expect(sha(Buffer.concat(chunks))).toBe(sha(photo));
    }
    expect((await listKeys(objects.client, BUCKETS.BUCKET_REFERENCES)).sort()).toEqual([k0, k1].sort());
    // The orphan sweep keeps a signer's own photo: its key is owned, an unknown one is not.
    const repo = createTransactionRepository(conn);
    expect(await repo.ownedKeys('reference_key', [k1!, 'nobody/reference.jpg'])).toEqual(new Set([k1]));
    expect(await repo.ownedKeys('reference_key', [k0!, k1!])).toEqual(new Set([k0, k1]));
    expect(await repo.ownedKeys('document_key', [rec.document_key, k1!])).toEqual(new Set([rec.document_key]));
  }, 120_000);
});
