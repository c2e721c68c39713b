import type { Readable } from 'node:stream';
import { ensureBuckets, type S3Config } from '@signet/kit';
import { createS3 } from '@signet/kit';

/**
 * Object storage of the signed PDF: reads the document by its key in the transaction service's
 * documents bucket (read-only, as biometrics reads reference photos), writes and serves the signed
 * PDF in the ledger's own bucket.
 */
export function createSignedPdfObjects(cfg: S3Config, buckets: { documents: string; signed: string }) {
  const s3 = createS3(cfg);
  return {
    async init() {
      await ensureBuckets(s3, [buckets.signed], cfg.S3_REGION);
    },
    async ping() {
      await s3.bucketExists(buckets.signed);
    },
    async readDocument(key: string): Promise<Buffer> {
      const parts: Buffer[] = [];
      for await (const chunk of (await s3.getObject(buckets.documents, key)) as AsyncIterable<Buffer>) parts.push(chunk);
      return Buffer.concat(parts);
    },
    async putSigned(key: string, pdf: Buffer): Promise<void> {
      await s3.putObject(buckets.signed, key, pdf, pdf.length, { 'Content-Type': 'application/pdf' });
    },
    async openSigned(key: string): Promise<Readable> {
      return s3.getObject(buckets.signed, key);
    },
    /** Deletes a stored PDF for good (its transaction was deleted); a missing one is no error. */
    async removeSigned(key: string): Promise<void> {
      await s3.removeObject(buckets.signed, key);
    },
  };
}

export type SignedPdfObjects = ReturnType<typeof createSignedPdfObjects>;
