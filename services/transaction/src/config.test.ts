import { describe, expect, it } from 'vitest';
import { transactionConfigSchema } from './config.js';

const env = {
  GRPC_PORT: '50053',
  OPS_PORT: '9103',
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  NATS_URL: 'nats://127.0.0.1:4222',
  SMTP_URL: 'smtp://127.0.0.1:1025',
  PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
  BILLING_ADDR: '127.0.0.1:50057',
  BIOMETRICS_ADDR: '127.0.0.1:50055',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'access-key',
  S3_SECRET_KEY: 'secret-key-for-tests',
  WEBHOOK_ENDPOINT_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
};

describe('transaction configuration: expiry', () => {
  it('defaults to 30 days, at most 180', () => {
    const c = transactionConfigSchema.parse(env);
    expect([c.EXPIRY_DEFAULT_SECONDS, c.EXPIRY_MAX_SECONDS]).toEqual([30 * 86_400, 180 * 86_400]);
  });
  it('refuses a default expiry longer than the maximum (every creation would be refused)', () => {
    const r = transactionConfigSchema.safeParse({ ...env, EXPIRY_DEFAULT_SECONDS: '100', EXPIRY_MAX_SECONDS: '99' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['EXPIRY_DEFAULT_SECONDS']);
  });
});
