import { createHash, randomUUID } from 'node:crypto';
import { createS3, type S3Config } from '@signet/kit';

const PART_SIZE = 5 * 1024 * 1024;
const PARALLEL_PARTS = 2;
/**
 * Part buffers (exactly PART_SIZE) are reused across parts and across uploads, at most this many kept
 * free (20 MB). With fresh buffers per upload, each lived the whole upload, was promoted to V8's old
 * space and left as old-space garbage; from the second 200 MB upload on, the service then ran a full
 * mark-compact every 100–250 ms (external memory pressure) and spent 2.0–2.9 CPU-s instead of 0.8–1.0.
 */
const MAX_FREE_BUFFERS = PARALLEL_PARTS + 2;
const freeBuffers: Buffer[] = [];
const takeBuffer = () => freeBuffers.pop() ?? Buffer.allocUnsafe(PART_SIZE);
const giveBack = (buf: Buffer) => void (freeBuffers.length < MAX_FREE_BUFFERS && freeBuffers.push(buf));

type S3 = ReturnType<typeof createS3>;

/**
 * The multipart half of an upload: bytes copied into pooled part buffers as they arrive, every part but
 * the last exactly PART_SIZE, up to PARALLEL_PARTS parts in flight while the next fills. `fill` waits
 * for a free slot when a part is full (the caller's backpressure); a failed part fails the next call.
 */
function multipartParts(client: S3, bucket: string, key: string, contentType: string) {
  /** The part being filled. */
  let part: Buffer | undefined;
  let filled = 0;
  let uploadId: Promise<string> | undefined;
  let partNumber = 0;
  const inFlight = new Set<Promise<unknown>>();
  const etags: { part: number; etag: string }[] = [];
  let failure: unknown;

  /** Sends the part buffer's first `n` bytes as the next part; the buffer returns to the pool once sent. */
  const sendPart = (buf: Buffer, n: number) => {
    const number = ++partNumber;
    uploadId ??= client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    const p = uploadId
      .then((id) =>
        client.uploadPart(
          { bucketName: bucket, objectName: key, uploadID: id, partNumber: number, headers: {} },
          buf.subarray(0, n),
        ),
      )
      .then(
        (r) => void etags.push({ part: number, etag: r.etag }),
        (err: unknown) => {
          failure ??= err;
        },
      )
      .finally(() => {
        giveBack(buf);
        inFlight.delete(p);
      });
    inFlight.add(p);
  };
  /** Waits for a free slot, then sends the full part being filled. */
  const partFull = async () => {
    while (inFlight.size >= PARALLEL_PARTS) await Promise.race(inFlight);
    if (failure) throw failure;
    sendPart(part!, filled);
    part = undefined;
    filled = 0;
  };
  const drain = async () => {
    while (inFlight.size) await Promise.race(inFlight);
  };

  return {
    check() {
      if (failure) throw failure;
    },
    /** Copies bytes into part buffers, sending each as it fills. */
    async fill(chunk: Buffer) {
      for (let off = 0; off < chunk.length;) {
        part ??= takeBuffer();
        const n = chunk.copy(part, filled, off);
        filled += n;
        off += n;
        if (filled === PART_SIZE) await partFull();
      }
    },
    /** Sends what is left, waits for every part, and completes the upload. */
    async complete() {
      if (part && filled > 0) sendPart(part, filled);
      else if (part) giveBack(part);
      part = undefined;
      await drain();
      if (failure) throw failure;
      etags.sort((x, y) => x.part - y.part);
      await client.completeMultipartUpload(bucket, key, await uploadId!, etags);
    },
    /** Stops: waits for the parts in flight and aborts the multipart upload, if one was started. */
    async abort() {
      if (part) giveBack(part);
      part = undefined;
      await drain();
      const id = await uploadId?.catch(() => undefined);
      if (id) await client.abortMultipartUpload(bucket, key, id).catch(() => undefined);
    },
  };
}

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
   * one PUT from the chunks it came in. A larger one becomes a multipart upload (multipartParts): from
   * the first full part on, bytes are copied into a pooled part buffer as they arrive (the chunks are
   * released at once), so memory stays at PARALLEL_PARTS + 1 part buffers whatever the document size.
   */
  function upload(bucket: string, contentType: string) {
    const key = `${new Date().toISOString().slice(0, 7)}/${randomUUID()}`;
    const hash = createHash('sha256');
    let size = 0;
    /** Before the first part is full: the chunks as they came (a small document never takes a part buffer). */
    let head: Buffer[] | undefined = [];
    let headBytes = 0;
    const parts = multipartParts(client, bucket, key, contentType);

    return {
      key,
      bucket,
      get size() {
        return size;
      },
      async write(chunk: Buffer): Promise<void> {
        parts.check();
        hash.update(chunk);
        size += chunk.length;
        if (head) {
          head.push(chunk);
          headBytes += chunk.length;
          if (headBytes < PART_SIZE) return;
          // The document is larger than one part: multipart from here on.
          const chunks = head;
          head = undefined;
          for (const c of chunks) await parts.fill(c);
          return;
        }
        await parts.fill(chunk);
      },
      /**
       * The whole document, while it is smaller than one part and so still held as it came (no copy
       * beyond joining its chunks once; finish() stores these same bytes); undefined once it is larger.
       */
      held(): Buffer | undefined {
        if (!head) return undefined;
        if (head.length > 1) head = [Buffer.concat(head, headBytes)];
        return head[0] ?? Buffer.alloc(0);
      },
      async finish(): Promise<{ key: string; sha256: string; size: number }> {
        if (head) {
          const data = head.length === 1 ? head[0]! : Buffer.concat(head, headBytes);
          head = undefined;
          await client.putObject(bucket, key, data, data.length, { 'Content-Type': contentType });
        } else await parts.complete();
        return { key, sha256: hash.digest('hex'), size };
      },
      async abort(): Promise<void> {
        head = undefined;
        await parts.abort();
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
    /** A stored document's bytes, whole (for the checks that need the document at once; the caller bounds how many at a time). */
    async readDocument(key: string): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for await (const c of await client.getObject(cfg.BUCKET_DOCUMENTS, key)) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
    /** A copy of a stored document under a fresh key, made by the object store itself (a template's document for a transaction). */
    async copyDocument(key: string): Promise<string> {
      const copy = `${new Date().toISOString().slice(0, 7)}/${randomUUID()}`;
      await client.copyObject(cfg.BUCKET_DOCUMENTS, copy, `/${cfg.BUCKET_DOCUMENTS}/${key}`);
      return copy;
    },
    async removeDocument(key: string): Promise<void> {
      await client.removeObject(cfg.BUCKET_DOCUMENTS, key).catch(() => undefined);
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;
export type DocumentUpload = ReturnType<ObjectStore['documents']>;
