import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { ledgerConfigSchema } from './config.js';
import { sealingSettings } from './seal.config.js';

const key = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const base = {
  GRPC_PORT: '1',
  OPS_PORT: '2',
  MONGO_URL: 'mongodb://127.0.0.1:1',
  NATS_URL: 'nats://127.0.0.1:1',
  LEDGER_SIGNING_KEY: key(),
};

describe('ledger config: the test log (test mode)', () => {
  it('is off without its key, and on with a key of its own and its own origin', () => {
    expect(parseConfig(ledgerConfigSchema, base).LEDGER_TEST_SIGNING_KEY).toBeUndefined();
    const cfg = parseConfig(ledgerConfigSchema, { ...base, LEDGER_TEST_SIGNING_KEY: key() });
    expect(cfg.LEDGER_TEST_ORIGIN).toBe('signet.local/ledger/test');
    expect(cfg.LEDGER_TEST_ORIGIN).not.toBe(cfg.LEDGER_ORIGIN);
  });
  it('refuses the live key, the live origin and a key that is not Ed25519, naming the variable', () => {
    expect(() => parseConfig(ledgerConfigSchema, { ...base, LEDGER_TEST_SIGNING_KEY: base.LEDGER_SIGNING_KEY })).toThrow(
      /LEDGER_TEST_SIGNING_KEY/,
    );
    expect(() =>
      parseConfig(ledgerConfigSchema, { ...base, LEDGER_TEST_SIGNING_KEY: key(), LEDGER_TEST_ORIGIN: 'signet.local/ledger' }),
    ).toThrow(/LEDGER_TEST_ORIGIN/);
    expect(() => parseConfig(ledgerConfigSchema, { ...base, LEDGER_TEST_SIGNING_KEY: 'not a key' })).toThrow(
      /LEDGER_TEST_SIGNING_KEY/,
    );
  });
});

describe('ledger config: the TEST seal (test mode, issue 32)', () => {
  const sealing = {
    ...base,
    LEDGER_SEAL_CERT: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----',
    LEDGER_SEAL_KEY: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----',
    LEDGER_TSA_URLS: 'http://tsa.example/',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY: 'a',
    S3_SECRET_KEY: 'b',
  };
  it('is generated when not configured, and taken whole when both certificate and key are given', () => {
    const generated = sealingSettings(parseConfig(ledgerConfigSchema, sealing), () => '');
    expect(generated!.testSeal).toEqual({});
    const given = sealingSettings(
      parseConfig(ledgerConfigSchema, {
        ...sealing,
        LEDGER_TEST_SEAL_CERT: '/etc/test-seal.pem',
        LEDGER_TEST_SEAL_KEY: '/etc/test-seal.key',
      }),
      (path) => `-----BEGIN from ${path}`,
    );
    expect(given!.testSeal).toEqual({
      certPem: '-----BEGIN from /etc/test-seal.pem',
      keyPem: '-----BEGIN from /etc/test-seal.key',
    });
  });
  it('refuses a certificate without its key, naming the variable', () => {
    expect(() => parseConfig(ledgerConfigSchema, { ...sealing, LEDGER_TEST_SEAL_CERT: '/etc/test-seal.pem' })).toThrow(
      /LEDGER_TEST_SEAL_KEY/,
    );
  });
});
