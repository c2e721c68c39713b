import { createHash, randomUUID } from 'node:crypto';
import { createS3, type S3Config } from '@signet/kit';

const PART_SIZE = 6 * 1024 * 1024;
const PARALLEL_PARTS = 2;
/** A part plus the largest message that can push it over PART_SIZE. */
const POOL_BUFFER = PART_SIZE + 1024 * 1024;
/**
 * Part buffers are reused across parts and across uploads (at most this many kept free, 28 MB). With
 * fresh buffers per upload, each lived the whole upload, was promoted to V8's old space and left as
 * old-space garbage; from the second 200 MB upload on, the service then ran a full mark-compact every
 * 100–250 ms (external memory pressure) and spent 2.0–2.9 CPU-s instead of 0.8–1.0 on the upload.
 */
const MAX_FREE_BUFFERS = PARALLEL_PARTS + 2;
const freeBuffers: Buffer[] = [];

/**
 * Object storage for the documents and references buckets. Documents of unknown length are uploaded
 * part by part here rather than with minio-js putObject, which sizes parts for a 5 TB object when
 * the length is unknown (a whole part of hundreds of MB in memory) and sends them one at a time.
 */
export function createObjectStore(cfg: S3Config & { BUCKET_DOCUMENTS: string; BUCKET_REFERENCES: string }) {
  const client = createS3(cfg);

  /**
   * A streaming upload: write() chunks (awaiting backpressure), then finish() for the SHA-256 and
   * size, or abort() to remove whatever was stored. A document that fits in one part is stored with
   * one PUT; a larger one becomes a multipart upload with up to PARALLEL_PARTS parts in flight while
   * the next part fills, so memory stays at a few parts whatever the document size.
   */
  function upload(bucket: string, contentType: string) {
    const key = `${new Date().toISOString().slice(0, 7)}/${randomUUID()}`;
    const hash = createHash('sha256');
    let size = 0;
    let filling: Buffer[] = [];
    let fillingBytes = 0;
    let uploadId: Promise<string> | undefined;
    let partNumber = 0;
    const inFlight = new Set<Promise<unknown>>();
    const etags: { part: number; etag: string }[] = [];
    let failure: unknown;

    const sendPart = () => {
      const { data, release } = takeFilling(true);
      const part = ++partNumber;
      uploadId ??= client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
      const p = uploadId
        .then((id) =>
          client.uploadPart({ bucketName: bucket, objectName: key, uploadID: id, partNumber: part, headers: {} }, data),
        )
        .then(
          (r) => void etags.push({ part, etag: r.etag }),
          (err: unknown) => {
            failure ??= err;
          },
        )
        .finally(() => {
          release();
          inFlight.delete(p);
        });
      inFlight.add(p);
    };
    const takeFilling = (pooled: boolean): { data: Buffer; release: () => void } => {
      const n = fillingBytes;
      const buf = pooled && n <= POOL_BUFFER ? (freeBuffers.pop() ?? Buffer.allocUnsafe(POOL_BUFFER)) : undefined;
      let data: Buffer;
      if (buf) {
        let off = 0;
        for (const c of filling) off += c.copy(buf, off);
        data = buf.subarray(0, n);
      } else {
        data = Buffer.concat(filling, n);
      }
      filling = [];
      fillingBytes = 0;
      return { data, release: () => void (buf && freeBuffers.length < MAX_FREE_BUFFERS && freeBuffers.push(buf)) };
    };

    return {
      key,
      bucket,
      get size() {
        return size;
      },
      async write(chunk: Buffer): Promise<void> {
        if (failure) throw failure;
        hash.update(chunk);
        size += chunk.length;
        filling.push(chunk);
        fillingBytes += chunk.length;
        if (fillingBytes < PART_SIZE) return;
        while (inFlight.size >= PARALLEL_PARTS) await Promise.race(inFlight);
        if (failure) throw failure;
        sendPart();
      },
      async finish(): Promise<{ key: string; sha256: string; size: number }> {
        if (!uploadId) {
          const { data } = takeFilling(false);
          await client.putObject(bucket, key, data, data.length, { 'Content-Type': contentType });
        } else {
          if (fillingBytes > 0) sendPart();
          while (inFlight.size) await Promise.race(inFlight);
          if (failure) throw failure;
          etags.sort((a, b) => a.part - b.part);
          await client.completeMultipartUpload(bucket, key, await uploadId, etags);
        }
        return { key, sha256: hash.digest('hex'), size };
      },
      async abort(): Promise<void> {
        filling = [];
        while (inFlight.size) await Promise.race(inFlight);
        if (uploadId) {
          const id = await uploadId.catch(() => undefined);
          if (id) await client.abortMultipartUpload(bucket, key, id).catch(() => undefined);
        }
        await client.removeObject(bucket, key).catch(() => undefined);
      },
    };
  }

  return {
    client,
    documents: (contentType = 'application/pdf') => upload(cfg.BUCKET_DOCUMENTS, contentType),
    async putReference(buf: Buffer, contentType: string): Promise<{ key: string; sha256: string }> {
      const key = `${new Date().toISOString().slice(0, 7)}/${randomUUID()}`;
      await client.putObject(cfg.BUCKET_REFERENCES, key, buf, buf.length, { 'Content-Type': contentType });
      return { key, sha256: createHash('sha256').update(buf).digest('hex') };
    },
    async removeReference(key: string): Promise<void> {
      await client.removeObject(cfg.BUCKET_REFERENCES, key).catch(() => undefined);
    },
    /** Deletes a reference photo for good; a missing one is no error (S3 answers a delete of it with success). */
    async deleteReference(key: string): Promise<void> {
      await client.removeObject(cfg.BUCKET_REFERENCES, key);
    },
    async removeDocument(key: string): Promise<void> {
      await client.removeObject(cfg.BUCKET_DOCUMENTS, key).catch(() => undefined);
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;
export type DocumentUpload = ReturnType<ObjectStore['documents']>;
