/**
 * The store must give MongoDB's single-document atomicity: every service relies on a targeted
 * update (an outbox pop, a status change, a counter) never undoing another one made at the same time.
 * FerretDB 1.x does not by itself (FerretDB issue 3040); scripts/ferretdb/atomic-writes.patch makes it.
 */
import { MongoClient, type Collection, type UpdateFilter } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

type Doc = { _id: string; n?: number; owner?: string | null; totp?: string; outbox?: string[]; [field: `f${number}`]: number };

describe('the document store applies concurrent writes to one document atomically', () => {
  let client: MongoClient;
  let coll: Collection<Doc>;
  beforeAll(async () => {
    client = await MongoClient.connect(inject('infra').MONGO_URL);
    coll = client.db('signet_store_test').collection(`atomic_${Date.now()}`);
  });
  afterAll(async () => {
    await coll?.drop().catch(() => undefined);
    await client?.close();
  });

  it('keeps every one of 40 concurrent $inc and $set updates', async () => {
    await coll.insertOne({ _id: 'doc', n: 0, outbox: ['a', 'b'] });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? coll.updateOne({ _id: 'doc' }, { $inc: { n: 1 } })
          : coll.updateOne({ _id: 'doc' }, { $set: { [`f${i}`]: i } } as UpdateFilter<Doc>),
      ),
    );
    // The shape the services race on: a field set while the outbox relay pops an entry.
    await Promise.all([
      coll.updateOne({ _id: 'doc' }, { $set: { totp: 'pending' } }),
      coll.updateOne({ _id: 'doc' }, { $pop: { outbox: -1 } }),
    ]);
    const doc = await coll.findOne({ _id: 'doc' });
    expect(doc!.n).toBe(20);
    for (let i = 1; i < 40; i += 2) expect(doc![`f${i}` as `f${number}`]).toBe(i);
    expect(doc!.totp).toBe('pending');
    expect(doc!.outbox).toEqual(['b']);
  });

  it('lets exactly one of 30 concurrent conditional findOneAndUpdate calls through', async () => {
    await coll.insertOne({ _id: 'claim', owner: null });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => coll.findOneAndUpdate({ _id: 'claim', owner: null }, { $set: { owner: `w${i}` } })),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
});
