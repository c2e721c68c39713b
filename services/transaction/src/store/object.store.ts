import { createHash, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Client } from 'minio';
import type { S3Config } from '@signet/kit';

/**
 * Object storage for the documents and references buckets. Its own client with a fixed 8 MB part
 * size: with an unknown length, minio-js would otherwise size parts for a 5 TB object and hold a
 * whole part (hundreds of MB) in memory.
 */
export function createObjectStore(cfg: S3Config & { BUCKET_DOCUMENTS: string; BUCKET_REFERENCES: string }) {
  const u = new URL(cfg.S3_ENDPOINT);
  const useSSL = u.protocol === 'https:';
  const client = new Client({
    endPoint: u.hostname,
    port: u.port ? Number(u.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: cfg.S3_ACCESS_KEY,
    secretKey: cfg.S3_SECRET_KEY,
    region: cfg.S3_REGION,
    pathStyle: true,
    partSize: 8 * 1024 * 1024,
  });

  /**
   * A streaming upload: write() chunks (awaiting backpressure), then finish() for the SHA-256 and
   * size, or abort() to remove whatever was stored. Nothing is buffered beyond one part.
   */
  function upload(bucket: string, contentType: string) {
    const key = `${new Date().toISOString().slice(0, 7)}/${randomUUID()}`;
    const pass = new PassThrough({ highWaterMark: 1024 * 1024 });
    const hash = createHash('sha256');
    let size = 0;
    let failure: unknown;
    const done = client.putObject(bucket, key, pass, undefined, { 'Content-Type': contentType }).then(
      () => undefined,
      (err: unknown) => {
        failure = err;
        throw err;
      },
    );
    done.catch(() => undefined);
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
        if (!pass.write(chunk)) {
          await Promise.race([new Promise<void>((resolve) => pass.once('drain', resolve)), done]);
        }
      },
      async finish(): Promise<{ key: string; sha256: string; size: number }> {
        pass.end();
        await done;
        return { key, sha256: hash.digest('hex'), size };
      },
      async abort(): Promise<void> {
        // minio-js cannot cancel a streaming upload midway, so finish it and remove the object; an
        // incomplete multipart upload (the upload itself failed) is removed too.
        pass.end();
        await done.catch(() => undefined);
        await client.removeObject(bucket, key).catch(() => undefined);
        await client.removeIncompleteUpload(bucket, key).catch(() => undefined);
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
    async removeDocument(key: string): Promise<void> {
      await client.removeObject(cfg.BUCKET_DOCUMENTS, key).catch(() => undefined);
    },
  };
}

export type ObjectStore = ReturnType<typeof createObjectStore>;
export type DocumentUpload = ReturnType<ObjectStore['documents']>;
