import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { gatewayConfigSchema } from './config.js';

const base = {
  HTTP_PORT: '1',
  OPS_PORT: '2',
  PUBLIC_BASE_URL: 'http://signet.test',
  REDIS_URL: 'redis://127.0.0.1:1',
  IDENTITY_ADDR: '127.0.0.1:1',
  TRANSACTION_ADDR: '127.0.0.1:1',
  CEREMONY_ADDR: '127.0.0.1:1',
  LEDGER_ADDR: '127.0.0.1:1',
  BILLING_ADDR: '127.0.0.1:1',
};

describe('gateway config: the test-only auth rate-limit scale', () => {
  it('defaults to the spec limits and takes a scale outside production', () => {
    expect(parseConfig(gatewayConfigSchema, base).AUTH_RATE_LIMIT_SCALE).toBe(1);
    expect(parseConfig(gatewayConfigSchema, { ...base, AUTH_RATE_LIMIT_SCALE: '1000' }).AUTH_RATE_LIMIT_SCALE).toBe(1000);
  });
  it('is refused in production, naming the variable', () => {
    expect(() => parseConfig(gatewayConfigSchema, { ...base, AUTH_RATE_LIMIT_SCALE: '1000', NODE_ENV: 'production' })).toThrow(
      /AUTH_RATE_LIMIT_SCALE/,
    );
    expect(parseConfig(gatewayConfigSchema, { ...base, NODE_ENV: 'production' }).AUTH_RATE_LIMIT_SCALE).toBe(1);
  });
});
