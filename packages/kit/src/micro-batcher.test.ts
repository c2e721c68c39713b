import { describe, expect, it } from 'vitest';
import { createMicroBatcher } from './micro-batcher.js';

describe('createMicroBatcher', () => {
  it('sends a lone call at once and groups the calls that arrive meanwhile, up to max', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const call = createMicroBatcher<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await first;
        return items.map((n) => ({ ok: n * 10 }));
      },
      { max: 3 },
    );
    const a = call(1);
    const rest = [2, 3, 4, 5, 6].map((n) => call(n));
    release();
    expect(await Promise.all([a, ...rest])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("gives each caller its own item's outcome, and a thrown batch fails all of its items only", async () => {
    let hold: Promise<void> = Promise.resolve();
    const call = createMicroBatcher<string, string>(
      async (items) => {
        if (items.includes('hold')) await hold;
        if (items.includes('boom')) throw new Error('write failed');
        return items.map((s) => (s === 'dup' ? { err: new Error('duplicate') } : { ok: s.toUpperCase() }));
      },
      { max: 10 },
    );
    const outcome = (r: PromiseSettledResult<string>) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message);
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const held = call('hold');
    // These three wait behind 'hold' and go as one batch: each gets its own outcome.
    const own = Promise.allSettled([call('a'), call('dup'), call('b')]);
    release();
    await held;
    expect((await own).map(outcome)).toEqual(['A', 'duplicate', 'B']);
    hold = new Promise<void>((r) => (release = r));
    const held2 = call('hold');
    // One batch whose write throws: all of its items fail, the next batch is unaffected.
    const thrown = Promise.allSettled([call('x'), call('boom')]);
    release();
    await held2;
    expect((await thrown).map(outcome)).toEqual(['write failed', 'write failed']);
    expect(await call('z')).toBe('Z');
  });

  it('rejects an item the batch gave no outcome for', async () => {
    const call = createMicroBatcher<number, number>(async () => [], { max: 2 });
    await expect(call(1)).rejects.toThrow(/no outcome/);
  });
});
