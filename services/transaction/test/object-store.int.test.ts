/**
 * The document upload against real MinIO: part buffers are shared across uploads, so concurrent
 * multipart uploads (and one aborted among them) must each store exactly their own bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureBuckets, listKeys } from '@signet/kit';
import { createObjectStore } from '../src/store/object.store.js';

const infra = () => inject('infra');
const suffix = randomBytes(3).toString('hex');
const cfg = () => ({
  ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
  S3_REGION: 'us-east-1',
  BUCKET_DOCUMENTS: `txo-docs-${suffix}`,
  BUCKET_REFERENCES: `txo-refs-${suffix}`,
});

/** `size` bytes of a PDF-looking document whose content depends on `seed`, in 256 KB chunks. */
function* documentChunks(seed: number, size: number) {
  const block = 256 * 1024;
  for (let off = 0; off < size; off += block) {
    const c = Buffer.alloc(Math.min(block, size - off), (seed * 37 + off / block) & 0xff);
    if (off === 0) c.write('%PDF-1.7\n');
    yield c;
  }
}

describe('object store: documents', () => {
  let objects: ReturnType<typeof createObjectStore>;
  beforeAll(async () => {
    objects = createObjectStore(cfg());
    await ensureBuckets(objects.client, [cfg().BUCKET_DOCUMENTS, cfg().BUCKET_REFERENCES]);
  });
  afterAll(async () => {
    for (const key of await listKeys(objects.client, cfg().BUCKET_DOCUMENTS)) await objects.removeDocument(key);
  });

  it('concurrent multipart uploads each store their own bytes with the SHA-256 they report; an aborted one leaves nothing', async () => {
    const size = 20 * 1024 * 1024 + 12_345; // four parts, the last one short
    const upload = async (seed: number, abortAfter?: number) => {
      const u = objects.documents();
      const expected = createHash('sha256');
      let sent = 0;
      for (const c of documentChunks(seed, size)) {
        await u.write(c);
        expected.update(c);
        sent += c.length;
        if (abortAfter !== undefined && sent >= abortAfter) {
          await u.abort();
          return { key: u.key, aborted: true as const };
        }
        if (seed % 2) await new Promise((r) => setImmediate(r)); // interleave differently
      }
      const r = await u.finish();
      return { ...r, expected: expected.digest('hex'), aborted: false as const };
    };
    const results = await Promise.all([upload(1), upload(2), upload(3, 13 * 1024 * 1024), upload(4)]);
    for (const r of results) {
      if (r.aborted) {
        await expect(objects.client.statObject(cfg().BUCKET_DOCUMENTS, r.key)).rejects.toMatchObject({ code: 'NotFound' });
        continue;
      }
      expect(r.size).toBe(size);
      expect(r.sha256).toBe(r.expected);
      const stored = createHash('sha256');
      for await (const c of await objects.client.getObject(cfg().BUCKET_DOCUMENTS, r.key)) stored.update(c as Buffer);
      expect(stored.digest('hex')).toBe(r.sha256);
    }
    // Then again, on buffers that earlier uploads returned to the pool.
    const again = await upload(5);
    if (again.aborted) throw new Error('not aborted');
    expect(again.sha256).toBe(again.expected);
    const keys = await listKeys(objects.client, cfg().BUCKET_DOCUMENTS);
    expect(keys.sort()).toEqual(
      results
        .filter((r) => !r.aborted)
        .map((r) => r.key)
        .concat(again.key)
        .sort(),
    );
  });
});
