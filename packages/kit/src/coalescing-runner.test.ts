import { describe, expect, it } from 'vitest';
import { createCoalescingRunner } from './coalescing-runner.js';
import { createLogger } from './logger.js';

const logger = createLogger('test', 'silent');

describe('createCoalescingRunner', () => {
  it('runs one pass at a time and folds calls made during a pass into one more pass', async () => {
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    const runner = createCoalescingRunner(
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        passes++;
        if (passes === 1) await new Promise<void>((r) => (release = r));
        active--;
      },
      { logger, periodMs: 60_000, failure: 'pass failed' },
    );
    const first = runner.run();
    await Promise.all([runner.run(), runner.run(), runner.run()]);
    release();
    await first;
    expect(passes).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('survives a failing pass and runs again on the next call', async () => {
    let calls = 0;
    const runner = createCoalescingRunner(
      async () => {
        calls++;
        if (calls === 1) throw new Error('store down');
      },
      { logger, periodMs: 60_000, failure: 'pass failed' },
    );
    await runner.run();
    await runner.run();
    expect(calls).toBe(2);
  });

  it('starts no pass after stop and waits for the running one', async () => {
    let finished = false;
    let calls = 0;
    const runner = createCoalescingRunner(
      async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 30));
        finished = true;
      },
      { logger, periodMs: 5, failure: 'pass failed' },
    );
    runner.start({ immediately: true });
    await runner.stop();
    expect(finished).toBe(true);
    const before = calls;
    await runner.run();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(before);
  });
});
