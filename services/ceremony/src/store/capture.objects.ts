import type { Readable } from 'node:stream';
import type { Client as S3 } from 'minio';

/** The captures bucket (object keys: domain/capture.ts). */
export function createCaptureObjects(s3: S3, bucket: string) {
  return {
    async put(key: string, body: Readable | Buffer, size: number, contentType: string): Promise<void> {
      await s3.putObject(bucket, key, body, size, { 'Content-Type': contentType });
    },
    /** Deletes for good (erasure): throws when any object could not be deleted; a missing one is no error. */
    async erase(keys: string[]): Promise<void> {
      if (!keys.length) return;
      const res = await s3.removeObjects(bucket, keys);
      const failed = res.flat().filter((r) => r && (r as { Error?: unknown }).Error);
      if (failed.length) throw new Error(`${failed.length} capture object(s) could not be deleted`);
    },
    /** Best effort: a key that stays behind is the orphan sweep's. */
    async remove(keys: string[]): Promise<void> {
      await s3.removeObjects(bucket, keys).catch(() => undefined);
    },
  };
}
export type CaptureObjects = ReturnType<typeof createCaptureObjects>;
