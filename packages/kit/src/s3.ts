import http from 'node:http';
import https from 'node:https';
import { Client } from 'minio';

export type S3Config = { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string; S3_REGION: string };

export function createS3(cfg: S3Config): Client {
  const u = new URL(cfg.S3_ENDPOINT);
  const useSSL = u.protocol === 'https:';
  return new Client({
    endPoint: u.hostname,
    port: u.port ? Number(u.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: cfg.S3_ACCESS_KEY,
    secretKey: cfg.S3_SECRET_KEY,
    region: cfg.S3_REGION,
    pathStyle: true,
    // minio imports the http namespace, whose `request` a tracing instrumentation patched later
    // never reaches; looking it up on the module object at each call does (an S3 span per request).
    transport: {
      request: ((...args: Parameters<typeof http.request>) => (useSSL ? https : http).request(...args)) as typeof http.request,
    },
  });
}

/** Creates the buckets a service owns if they are missing (idempotent, safe across replicas). */
export async function ensureBuckets(s3: Client, buckets: string[], region = 'us-east-1'): Promise<void> {
  for (const b of buckets) {
    if (await s3.bucketExists(b)) continue;
    try {
      await s3.makeBucket(b, region);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
    }
  }
}

export async function pingS3(s3: Client, bucket: string): Promise<void> {
  await s3.bucketExists(bucket);
}

/** Every object key under a prefix (for tests and retention sweeps). */
export async function listKeys(s3: Client, bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const obj of s3.listObjectsV2(bucket, prefix, true)) if (obj.name) keys.push(obj.name);
  return keys;
}
