import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseSchema, env, parseConfig } from './config.js';

describe('config', () => {
  const schema = baseSchema.extend({ GRPC_PORT: env.port, MONGO_URL: env.mongoUrl, JWT_SECRET: env.secret(32) });
  const good = { OPS_PORT: '9000', GRPC_PORT: '50051', MONGO_URL: 'mongodb://localhost/', JWT_SECRET: 'x'.repeat(32) };

  it('parses and coerces a good environment, with defaults', () => {
    expect(parseConfig(schema, good)).toMatchObject({ OPS_PORT: 9000, GRPC_PORT: 50051, LOG_LEVEL: 'info' });
  });

  it('names every bad variable and never echoes a value', () => {
    const secret = 'short-secret-value';
    expect(() => parseConfig(schema, { ...good, GRPC_PORT: 'abc', JWT_SECRET: secret, MONGO_URL: 'http://x' })).toThrow(
      /GRPC_PORT.*MONGO_URL|MONGO_URL.*GRPC_PORT/,
    );
    try {
      parseConfig(schema, { ...good, JWT_SECRET: secret });
    } catch (err) {
      expect(String(err)).toContain('JWT_SECRET');
      expect(String(err)).not.toContain(secret);
    }
  });

  it('secrets have no default', () => {
    const { JWT_SECRET: _omit, ...rest } = good;
    expect(() => parseConfig(schema, rest)).toThrow(/JWT_SECRET/);
  });

  it('a service with a wrong value exits with one line naming the variable', () => {
    const root = join(import.meta.dirname, '../../..');
    const r = spawnSync(
      process.execPath,
      ['--conditions=@signet/source', '--import', 'tsx', join(root, 'services/ledger/src/main.ts')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          OPS_PORT: 'not-a-port',
          GRPC_PORT: '50055',
          MONGO_URL: 'mongodb://127.0.0.1:1/',
          NATS_URL: 'nats://127.0.0.1:1',
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(78);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^config error: OPS_PORT: /);
  }, 40_000);
});
