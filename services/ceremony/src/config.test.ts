import { describe, expect, it } from 'vitest';
import { ceremonyConfigSchema } from './config.js';

const base = {
  OPS_PORT: '9000',
  GRPC_PORT: '9001',
  MONGO_URL: 'mongodb://localhost:27017',
  NATS_URL: 'nats://localhost:4222',
  REDIS_URL: 'redis://localhost:6379',
  TRANSACTION_ADDR: 'localhost:9002',
  WEBAUTHN_ORIGIN: 'http://localhost:8080',
  S3_ENDPOINT: 'http://localhost:9003',
  S3_ACCESS_KEY: 'minio-access-key',
  S3_SECRET_KEY: 'minio-secret-key-0123456789',
};

describe('ceremony config', () => {
  it('takes a test seed outside production and refuses it in production (it makes challenges predictable)', () => {
    const seed = 'a-test-seed-of-some-length';
    expect(ceremonyConfigSchema.safeParse({ ...base, CHALLENGE_TEST_SEED: seed }).success).toBe(true);
    const prod = ceremonyConfigSchema.safeParse({ ...base, CHALLENGE_TEST_SEED: seed, NODE_ENV: 'production' });
    expect(prod.success).toBe(false);
    expect(JSON.stringify(prod.error?.issues)).toMatch(/CHALLENGE_TEST_SEED/);
    expect(ceremonyConfigSchema.safeParse({ ...base, NODE_ENV: 'production' }).success).toBe(true);
  });
});
