import { describe, expect, it } from 'vitest';
import { createKeyedLock } from './outbox.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createKeyedLock', () => {
  it('runs calls with the same key one after another, in call order', async () => {
    const lock = createKeyedLock<number>();
    const seen: string[] = [];
    let inside = 0;
    let most = 0;
    const work = (name: string) => async () => {
      inside++;
      most = Math.max(most, inside);
      seen.push(`${name}:start`);
      await tick();
      seen.push(`${name}:end`);
      inside--;
      return name;
    };
    const results = await Promise.all([lock(1, work('a')), lock(1, work('b')), lock(1, work('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(seen).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('lets different keys run at the same time', async () => {
    const lock = createKeyedLock<number>();
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside++;
      most = Math.max(most, inside);
      await tick();
      inside--;
    };
    await Promise.all([lock(1, work), lock(2, work), lock(3, work)]);
    expect(most).toBe(3);
  });

  it('passes a failure to its caller only and keeps serving the key', async () => {
    const lock = createKeyedLock<string>();
    const order: string[] = [];
    const failing = lock('k', async () => {
      await tick();
      order.push('failing');
      throw new Error('boom');
    });
    const next = lock('k', async () => {
      order.push('next');
      return 42;
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
    expect(order).toEqual(['failing', 'next']);
    await expect(lock('k', async () => 'again')).resolves.toBe('again');
  });

  it('compares keys by their string form (an id read back from the store locks like the one a caller holds)', async () => {
    const lock = createKeyedLock<unknown>();
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside++;
      most = Math.max(most, inside);
      await tick();
      inside--;
    };
    await Promise.all([lock(7, work), lock('7', work), lock({ toString: () => '7' }, work)]);
    expect(most).toBe(1);
  });
});
