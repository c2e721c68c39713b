/**
 * A start of the biometrics service that fails part way leaves nothing running behind it: the
 * analyzer it was given (or loaded) is closed, and the words recogniser's Python process is ended
 * (a test's failed start, or a supervisor's retries, used to accumulate them).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { biometricsConfigSchema } from './config.js';
import { startBiometrics } from './app.js';
import type { Analyzer } from './domain/analyzer.js';

const config = (env: Record<string, string> = {}) =>
  parseConfig(biometricsConfigSchema, {
    GRPC_PORT: '1',
    OPS_PORT: '2',
    // nothing listens on port 1: the connection is refused and the start fails
    MONGO_URL: 'mongodb://127.0.0.1:1/x',
    NATS_URL: 'nats://127.0.0.1:1',
    S3_ENDPOINT: 'http://127.0.0.1:1',
    S3_ACCESS_KEY: 'key',
    S3_SECRET_KEY: 'secret-secret',
    LOG_LEVEL: 'silent',
    ...env,
  });

/** This test process's children running the words recogniser. */
const recognisers = () =>
  execFileSync('ps', ['--ppid', String(process.pid), '-o', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('recognise.py')).length;

describe('a failed start of the biometrics service', () => {
  it('closes the analyzer it was given when the database cannot be reached', async () => {
    let closed = 0;
    const analyzer = {
      models: ['test'],
      analyze: () => Promise.reject(new Error('not used')),
      close: async () => {
        closed++;
      },
    } as unknown as Analyzer;
    await expect(startBiometrics(config(), { analyzer })).rejects.toThrow();
    expect(closed).toBe(1);
  }, 30_000);

  it('ends the words recogniser it started when the analysis backend cannot load', async () => {
    // watch the children while the start runs: the recogniser must have been running, then gone
    let seen = 0;
    const watch = setInterval(() => (seen = Math.max(seen, recognisers())), 100);
    try {
      // no GPU here: TF_BACKEND=node-gpu fails after the recogniser has started
      await expect(startBiometrics(config({ TF_BACKEND: 'node-gpu' }))).rejects.toThrow(/TF_BACKEND=node-gpu cannot be used/);
    } finally {
      clearInterval(watch);
    }
    expect(seen, 'the recogniser started during the start').toBeGreaterThan(0);
    expect(recognisers()).toBe(0);
  }, 120_000);
});
