import { describe, expect, it } from 'vitest';
import { newAccount } from '../domain/account.js';
import { usagePeriod } from '../domain/plans.js';
import { fakeAccounts, fakeConsumptions, fakeMetrics } from '../../test/fakes.js';
import { consumeSignature } from './consume-signature.js';
import { refundSignature } from './refund-signature.js';

function setup(credits = 0, plan: 'Free' | 'Pro' = 'Free') {
  const { accounts } = fakeAccounts([{ ...newAccount('u1'), plan, credits_granted: credits }]);
  const consumptions = fakeConsumptions();
  const m = fakeMetrics();
  return { deps: { accounts, consumptions, metrics: m.metrics }, consumptions, ...m };
}
const consume = (deps: ReturnType<typeof setup>['deps'], consumptionId: string) =>
  consumeSignature(deps, { userId: 'u1', consumptionId });

describe('consumeSignature', () => {
  it("takes this month's quota first, then credits, then refuses with QUOTA_EXHAUSTED", async () => {
    const { deps, consumptions, counted } = setup(2);
    const sources = [];
    for (const id of ['a', 'b', 'c', 'd', 'e']) sources.push((await consume(deps, id)).source);
    expect(sources).toEqual(['quota', 'quota', 'quota', 'credit', 'credit']);
    expect(consumptions.all.filter((c) => c.source === 'quota').every((c) => c.period === usagePeriod(new Date()))).toBe(true);
    await expect(consume(deps, 'f')).rejects.toMatchObject({ kind: 'quota_exhausted', reason: 'QUOTA_EXHAUSTED' });
    expect(counted('quotaRejections')).toBe(1);
    expect(counted('consumptions', { source: 'quota' })).toBe(3);
    expect(counted('consumptions', { source: 'credit' })).toBe(2);
  });

  it('answers a repeated consumption id with its first source and takes nothing more', async () => {
    const { deps, consumptions, counted } = setup();
    expect(await consume(deps, 'a')).toEqual({ source: 'quota' });
    expect(await consume(deps, 'a')).toEqual({ source: 'quota' });
    expect(consumptions.all).toHaveLength(1);
    expect(counted('consumptions')).toBe(1);
  });

  it('gives a Pro account 25 a month', async () => {
    const { deps } = setup(0, 'Pro');
    for (let i = 0; i < 25; i++) await consume(deps, `c${i}`);
    await expect(consume(deps, 'one-more')).rejects.toMatchObject({ reason: 'QUOTA_EXHAUSTED' });
  });

  it('refuses a refunded consumption id, and malformed ids before touching the store', async () => {
    const { deps } = setup();
    await consume(deps, 'a');
    expect(await refundSignature(deps, { userId: 'u1', consumptionId: 'a' })).toBe(true);
    await expect(consume(deps, 'a')).rejects.toMatchObject({ kind: 'conflict' });
    await expect(consumeSignature(deps, { userId: 'a b', consumptionId: 'x' })).rejects.toMatchObject({
      kind: 'invalid_argument',
      message: expect.stringMatching(/^user_id/),
    });
    await expect(consumeSignature(deps, { userId: 'u1', consumptionId: '' })).rejects.toMatchObject({
      message: expect.stringMatching(/^consumption_id/),
    });
  });

  it('reads the consumption, its refund, the account and the slots together, then takes a slot', async () => {
    const { deps, consumptions } = setup();
    await consume(deps, 'a');
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const held =
      <A extends unknown[], R>(name: string, read: (...a: A) => Promise<R>) =>
      async (...a: A) => {
        started.push(name);
        await gate;
        return read(...a);
      };
    const gated = {
      ...deps,
      accounts: { latest: held('latest', deps.accounts.latest) },
      consumptions: {
        ...consumptions,
        find: held('find', consumptions.find),
        findRefund: held('findRefund', consumptions.findRefund),
        slotsAndPrior: held('slotsAndPrior', consumptions.slotsAndPrior),
      },
    };
    const pending = consumeSignature(gated, { userId: 'u1', consumptionId: 'b' });
    await new Promise((r) => setImmediate(r));
    expect(started.sort()).toEqual(['findRefund', 'latest', 'slotsAndPrior']);
    open();
    expect(await pending).toEqual({ source: 'quota' });
    // The slot taken is the free one after 'a', and nothing more was read.
    expect(consumptions.all.map((c) => [c.consumption_id, c.slot])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
    expect(started).toHaveLength(3);
  });

  it('takes a credit after the month’s quota with one read of the consumptions (not one per source)', async () => {
    const { deps, consumptions } = setup(5);
    for (const id of ['a', 'b', 'c', 'd']) await consume(deps, id);
    const reads: string[] = [];
    const counted =
      <A extends unknown[], R>(name: string, read: (...a: A) => Promise<R>) =>
      async (...a: A) => {
        reads.push(name);
        return read(...a);
      };
    const spied = {
      ...deps,
      consumptions: {
        ...consumptions,
        find: counted('find', consumptions.find),
        findRefund: counted('findRefund', consumptions.findRefund),
        slotsAndPrior: counted('slotsAndPrior', consumptions.slotsAndPrior),
      },
    };
    expect(await consumeSignature(spied, { userId: 'u1', consumptionId: 'e' })).toEqual({ source: 'credit' });
    expect(reads.sort()).toEqual(['findRefund', 'slotsAndPrior']);
    // The credit slot taken is the free one after 'd' (credit slot 0).
    expect(consumptions.all.at(-1)).toMatchObject({ consumption_id: 'e', source: 'credit', slot: 1 });
    // A repeat is answered from the same read, before the refund is considered.
    reads.length = 0;
    expect(await consumeSignature(spied, { userId: 'u1', consumptionId: 'e' })).toEqual({ source: 'credit' });
    expect(reads.sort()).toEqual(['findRefund', 'slotsAndPrior']);
  });
});

describe('refundSignature', () => {
  it('gives the slot back once, answers true on every repeat and false for an unknown id or another user', async () => {
    const { deps, consumptions, counted } = setup();
    await consume(deps, 'a');
    for (let i = 0; i < 3; i++) expect(await refundSignature(deps, { userId: 'u1', consumptionId: 'a' })).toBe(true);
    expect(consumptions.all).toHaveLength(0);
    expect(counted('refunds', { source: 'quota' })).toBe(1);
    expect(await refundSignature(deps, { userId: 'u2', consumptionId: 'a' })).toBe(false);
    expect(await refundSignature(deps, { userId: 'u1', consumptionId: 'never' })).toBe(false);
    // The freed quota slot is usable again.
    expect((await consume(deps, 'b')).source).toBe('quota');
  });

  it('answers true when a concurrent refund of the same id finishes between its two reads', async () => {
    const { deps, consumptions } = setup();
    await consume(deps, 'a');
    // The other refund runs to its end after this one found no refund record and before it reads the consumption.
    const find = consumptions.find.bind(consumptions);
    let raced = false;
    consumptions.find = async (userId: string, id: string) => {
      if (!raced) {
        raced = true;
        expect(await refundSignature(deps, { userId, consumptionId: id })).toBe(true);
      }
      return find(userId, id);
    };
    expect(await refundSignature(deps, { userId: 'u1', consumptionId: 'a' })).toBe(true);
    expect(raced).toBe(true);
    expect(consumptions.all).toHaveLength(0);
  });

  it('finishes a refund whose record was written but whose slot was not freed', async () => {
    const { deps, consumptions, counted } = setup();
    await consume(deps, 'a');
    consumptions.refunds.push({ ...consumptions.all[0]!, created_at: new Date() });
    expect(await refundSignature(deps, { userId: 'u1', consumptionId: 'a' })).toBe(true);
    expect(consumptions.all).toHaveLength(0);
    expect(counted('refunds')).toBe(0);
  });
});
