import type { Client } from 'minio';

/** An object read whole into memory (media are never written to disk); more than `maxBytes` throws. */
export async function readObject(s3: Client, bucket: string, key: string, maxBytes: number): Promise<Buffer> {
  const stream = await s3.getObject(bucket, key);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error(`object exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Whether an S3 error says the object is not there. */
export const isMissingObject = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound';
};
