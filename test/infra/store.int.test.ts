/**
 * The store must give MongoDB's single-document atomicity: every service relies on a targeted
 * update (an outbox pop, a status change, a counter) never undoing another one made at the same time.
 * FerretDB 1.x does not by itself (FerretDB issue 3040); scripts/ferretdb/atomic-writes.patch makes it,
 * with a lock per document for writes that pin one `_id`, so writes to different documents of one
 * collection still proceed in parallel (checked on PostgreSQL, where a row lock can hold one write).
 */
import { spawn } from 'node:child_process';
import { MongoClient, type Collection, type Filter, type UpdateFilter } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../harness/eventually.js';

type IdDoc = { _id: number | string; k?: string };
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
    await coll.insertOne({ _id: 'doc', n: 0, outbox: ['a', 'b'], owner: 'racer' });
    // Filters that pin the _id (a lock per document) and one that does not (a lock per collection).
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 1
          ? coll.updateOne({ _id: 'doc' }, { $set: { [`f${i}`]: i } } as UpdateFilter<Doc>)
          : coll.updateOne(i % 4 === 0 ? { _id: 'doc' } : { owner: 'racer' }, { $inc: { n: 1 } }),
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

  // The patch lets PostgreSQL answer _id filters from the _id index (scripts/ferretdb/README.md):
  // every filter on _id must still match exactly what MongoDB matches.
  it('finds by _id equality, range and $in exactly, across numeric and string _ids', async () => {
    const ids = client.db('signet_store_test').collection<IdDoc>(`ids_${Date.now()}`);
    try {
      await ids.insertMany([
        { _id: 1 },
        { _id: 2.5 },
        { _id: 3, k: 'x' },
        { _id: 2 ** 40 },
        { _id: 'a' },
        { _id: 'b', k: 'x' },
        { _id: '3' },
      ]);
      const find = async (filter: Filter<IdDoc>) =>
        (await ids.find(filter).toArray()).map((d) => d._id).sort((a, b) => String(a).localeCompare(String(b)));
      expect(await find({ _id: 3 })).toEqual([3]);
      expect(await find({ _id: 3.0, k: 'x' })).toEqual([3]);
      expect(await find({ _id: '3' })).toEqual(['3']);
      expect(await find({ _id: { $eq: 'b' }, k: 'x' })).toEqual(['b']);
      expect(await find({ _id: 'b', k: 'y' })).toEqual([]);
      expect(await find({ _id: { $gte: 2, $lt: 2 ** 40 } })).toEqual([2.5, 3]);
      expect(await find({ _id: { $gt: 1 } })).toEqual([2 ** 40, 2.5, 3]);
      expect(await find({ _id: { $lte: 2.5 } })).toEqual([1, 2.5]);
      expect(await find({ _id: { $gte: 'a' } })).toEqual(['a', 'b']);
      expect(await find({ _id: { $in: [1, 'b', 2.5, 'zz', 4] } })).toEqual([1, 2.5, 'b']);
      expect(await find({ _id: { $in: [3, null] } } as Filter<IdDoc>)).toEqual([3]);
      expect((await ids.updateOne({ _id: 2 ** 40 }, { $set: { k: 'y' } })).modifiedCount).toBe(1);
      expect((await ids.deleteMany({ _id: { $in: ['a', 1] } })).deletedCount).toBe(2);
      expect(await ids.countDocuments({ _id: { $gte: 0 } })).toBe(3);
    } finally {
      await ids.drop().catch(() => undefined);
    }
  });

  // The patch also lets PostgreSQL skip documents for `$exists: true` (the outbox sweep's
  // `{'outbox.occurred_at': {$exists: true}}`): it must still match exactly what MongoDB matches, and
  // FerretDB must report the filter pushed down on PostgreSQL.
  it('finds by $exists exactly, on a field and on a dotted path into arrays and documents', async () => {
    type ODoc = { _id: string; o?: unknown };
    const docs = client.db('signet_store_test').collection<ODoc>(`exists_${Date.now()}`);
    try {
      await docs.insertMany([
        { _id: 'none' },
        { _id: 'empty', o: [] },
        { _id: 'entry', o: [{ at: new Date() }] },
        { _id: 'entry_null', o: [{ x: 1 }, { at: null }] },
        { _id: 'other', o: [{ x: 1 }] },
        { _id: 'doc', o: { at: 2 } },
        { _id: 'doc_other', o: { x: 2 } },
        { _id: 'doc_empty', o: {} },
        { _id: 'scalar', o: 5 },
        { _id: 'null', o: null },
        { _id: 'index', o: [7] },
      ]);
      const find = async (filter: Filter<ODoc>) => (await docs.find(filter).toArray()).map((d) => d._id).sort();
      const all = ['doc', 'doc_empty', 'doc_other', 'empty', 'entry', 'entry_null', 'index', 'none', 'null', 'other', 'scalar'];
      expect(await find({ o: { $exists: true } })).toEqual(all.filter((id) => id !== 'none'));
      expect(await find({ 'o.at': { $exists: true } })).toEqual(['doc', 'entry', 'entry_null']);
      expect(await find({ 'o.0': { $exists: true } })).toEqual(['entry', 'entry_null', 'index', 'other']);
      expect(await find({ 'o.at': { $exists: false } })).toEqual(
        all.filter((id) => !['doc', 'entry', 'entry_null'].includes(id)),
      );
      expect(await find({ 'o.at': { $exists: true }, _id: { $in: ['doc', 'other'] } })).toEqual(['doc']);
      expect((await docs.updateMany({ 'o.at': { $exists: true } }, { $set: { o: [] } })).modifiedCount).toBe(3);
      expect(await find({ 'o.at': { $exists: true } })).toEqual([]);
      if (inject('infra').STORE_POSTGRES_URL) {
        const plan = await client
          .db('signet_store_test')
          .command({ explain: { find: docs.collectionName, filter: { 'o.at': { $exists: true } } } });
        expect(plan.filterPushdown).toBe(true);
      }
    } finally {
      await docs.drop().catch(() => undefined);
    }
  });

  it('lets exactly one of 30 concurrent conditional findOneAndUpdate calls through', async () => {
    await coll.insertOne({ _id: 'claim', owner: null });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => coll.findOneAndUpdate({ _id: 'claim', owner: null }, { $set: { owner: `w${i}` } })),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });
});

/** One psql session: statements run in order on one connection, so a transaction spans calls. */
function psqlSession(url: string) {
  const proc = spawn('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  proc.on('exit', () => (exited = true));
  let n = 0;
  return {
    /** Runs one statement and returns its output rows. */
    async run(sql: string): Promise<string[]> {
      const marker = `-- signet statement ${++n} done --`;
      const start = out.length;
      proc.stdin.write(`${sql.trim().replace(/;?$/, ';')}\n\\echo '${marker}'\n`);
      return eventually(
        async () => {
          if (exited) throw new Error(`psql exited: ${err}`);
          const at = out.indexOf(marker, start);
          return at >= 0 && out.slice(start, at).split('\n').filter(Boolean);
        },
        30_000,
        20,
      ).catch((e: Error) => {
        throw new Error(`${e.message} (psql: ${err})`);
      });
    },
    async close() {
      if (exited) return;
      const done = new Promise((r) => proc.once('exit', r));
      proc.stdin.end('\\q\n');
      await done;
    },
  };
}

/** Settles to 'pending' when the promise has not settled after the given wait (for a write that must be blocked). */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
}

describe('the document store lets writes to different documents of one collection proceed in parallel', () => {
  const pgUrl = inject('infra').STORE_POSTGRES_URL;
  let client: MongoClient;
  let coll: Collection<Doc>;
  const db = 'signet_store_test';
  const name = `parallel_${Date.now()}`;
  beforeAll(async () => {
    client = await MongoClient.connect(inject('infra').MONGO_URL);
    coll = client.db(db).collection(name);
  });
  afterAll(async () => {
    await coll?.drop().catch(() => undefined);
    await client?.close();
  });

  // FerretDB's PostgreSQL backend keeps a collection in a table of the database's schema, one row per
  // document in a `_jsonb` column; a row lock taken from PostgreSQL holds a write of that document
  // inside FerretDB (its UPDATE waits) for as long as the test wants, with no timing involved.
  it.runIf(Boolean(pgUrl))(
    'completes a write of B while a write of A is held, and a filter without _id waits for A',
    async () => {
      await coll.insertMany([
        { _id: 'A', n: 0 },
        { _id: 'B', n: 0 },
      ]);
      const pg = psqlSession(pgUrl!);
      let holding = false;
      const pendingA: Promise<unknown>[] = [];
      try {
        const [table] = await pg.run(
          `SELECT _jsonb->>'table' FROM "${db}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = '${name}'`,
        );
        expect(table).toBeTruthy();
        const [me] = await pg.run('BEGIN; SELECT pg_backend_pid();');
        holding = true;
        await pg.run(`SELECT 1 FROM "${db}"."${table}" WHERE _jsonb->'_id' = '"A"'::jsonb FOR UPDATE;`);

        // A's write reaches PostgreSQL and waits on the row lock, holding whatever FerretDB's patch took for A.
        let aDone = false;
        const a = coll.updateOne({ _id: 'A' }, { $inc: { n: 1 } }).then((r) => ((aDone = true), r));
        pendingA.push(a);
        await eventually(async () => {
          const [blocked] = await pg.run(`SELECT count(*) FROM pg_stat_activity WHERE ${me} = ANY(pg_blocking_pids(pid));`);
          return Number(blocked) >= 1;
        });

        // B's write needs nothing A holds. Against a lock per collection it would wait for A's, which
        // cannot finish before the row lock goes: the bound only turns that wait into a failure.
        const b = await within(coll.updateOne({ _id: 'B' }, { $inc: { n: 1 } }), 20_000);
        expect(b, 'the write of B waited for the held write of A').not.toBe('pending');
        expect(aDone).toBe(false);
        expect((await coll.findOne({ _id: 'B' }))!.n).toBe(1);

        // A write whose filter pins no _id may touch A, so it waits for A's write: it marks every
        // document with n = 1, and finds A among them only after A's $inc.
        const c = coll.updateMany({ n: 1 }, { $set: { owner: 'c' } });
        pendingA.push(c);
        // Time for C to reach the store (a C that did not wait would now mark B alone); the pass does not depend on it.
        await new Promise((r) => setTimeout(r, 300));
        expect(aDone).toBe(false);

        await pg.run('ROLLBACK;');
        holding = false;
        await Promise.all(pendingA);
        const docs = await coll.find().sort({ _id: 1 }).toArray();
        expect(docs).toEqual([
          { _id: 'A', n: 1, owner: 'c' },
          { _id: 'B', n: 1, owner: 'c' },
        ]);
      } finally {
        if (holding) await pg.run('ROLLBACK;').catch(() => undefined);
        await pg.close();
        await Promise.allSettled(pendingA);
      }
    },
  );
});
