/**
 * Readiness policy: a pod is ready when it can serve. Its store and cache gate readiness; NATS is
 * reported but does not (events wait in the outbox), unless a check says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { readiness, type ReadinessCheck } from './http.js';

const hang = () => new Promise(() => undefined);
const fail = async () => {
  throw new Error('connection refused');
};
const ok = async () => undefined;

describe('readiness', () => {
  it('stays ready with NATS unreachable, and says so', async () => {
    const checks: ReadinessCheck[] = [
      { name: 'mongo', check: ok },
      { name: 'nats', check: hang },
    ];
    expect(await readiness(checks, 50)).toEqual({ ready: true, checks: { mongo: 'ok', nats: 'timeout (not required)' } });
  });

  it('is unready when its store or cache does not answer', async () => {
    expect(
      await readiness(
        [
          { name: 'mongo', check: fail },
          { name: 'nats', check: ok },
        ],
        50,
      ),
    ).toEqual({ ready: false, checks: { mongo: 'connection refused', nats: 'ok' } });
    expect((await readiness([{ name: 'redis', check: hang }], 50)).ready).toBe(false);
  });

  it('lets a check choose: a gating NATS check, a non-gating other one', async () => {
    expect((await readiness([{ name: 'nats', check: fail, gating: true }], 50)).ready).toBe(false);
    expect(await readiness([{ name: 's3', check: fail, gating: false }], 50)).toEqual({
      ready: true,
      checks: { s3: 'connection refused (not required)' },
    });
  });
});
