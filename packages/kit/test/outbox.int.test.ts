/**
 * The outbox relay on real FerretDB/MongoDB and JetStream: each entry is published once with its event
 * id as the message id and then popped; a failed publish stays on the record, in order, for a later
 * pass; with a keyed lock the sweep never overlaps the service's own writes to a document (FerretDB
 * 1.x applies updates as read-modify-write, so an overlapping pop could undo a write).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { Schema, type Connection, type Model } from 'mongoose';
import {
  connectBus,
  connectMongo,
  createKeyedLock,
  createLogger,
  createOutboxRelay,
  Metrics,
  outboxEvent,
  outboxField,
  outboxIndex,
  publishEvent,
  STREAM,
  type Bus,
  type OutboxEntry,
} from '../src/index.js';
import type { EventEntry } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';

const suffix = randomBytes(4).toString('hex');
const logger = createLogger('kit-test', process.env.TEST_LOG_LEVEL ?? 'silent');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The event ids published on a subject, in stream order. */
async function publishedIds(bus: Bus, subject: string): Promise<string[]> {
  const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: [subject] });
  const info = await consumer.info(true);
  if (info.num_pending === 0) return [];
  const out: string[] = [];
  const batch = await consumer.fetch({ max_messages: 1000, expires: 1000 });
  for await (const m of batch) {
    out.push(m.headers?.get('Nats-Msg-Id') ?? '');
    if (m.info.pending === 0) break;
  }
  return out;
}

type Doc = { _id: number; count: number; outbox: OutboxEntry[] };

describe('outbox relay', () => {
  let bus: Bus;
  let conn: Connection;
  let docs: Model<Doc>;
  let others: Model<Doc>;
  const subject = (name: string) => `signet.kittest.${suffix}.${name}`;
  /** A test event on its own subject, JSON in place of a protobuf message. */
  const testEvent = (subj: string): EventEntry<object> => ({
    subject: subj,
    message: {
      encode: (m) => ({ finish: () => Buffer.from(JSON.stringify(m)) }),
      decode: (b) => JSON.parse(Buffer.from(b).toString()),
    },
    producer: 'transaction',
    consumers: [],
  });
  const entry = (subj: string) => outboxEvent(testEvent(subj), (m) => m);
  const outboxOf = async (id: number) => (await docs.findById(id).lean<Doc>())!.outbox;

  beforeAll(async () => {
    const infra = inject('infra');
    bus = await connectBus(infra.NATS_URL, 'kit-outbox-test');
    conn = await connectMongo(infra.MONGO_URL, `t_${suffix}_kit_outbox`);
    const schema = new Schema<Doc>({ _id: Number, count: { type: Number, default: 0 }, outbox: outboxField });
    schema.index(...outboxIndex);
    docs = conn.model<Doc>('OutboxDoc', schema, 'outbox_docs');
    others = conn.model<Doc>('OtherDoc', schema.clone(), 'other_docs');
    await Promise.all([docs.init(), others.init()]);
  });

  it('declares the sparse pending-entries index the sweep reads', async () => {
    const idx = (await docs.collection.indexes()).find((i) => i.name === 'outbox_pending');
    expect(idx?.key).toEqual({ 'outbox.occurred_at': 1 });
  });

  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await bus?.nc.drain();
  });

  it('flush publishes one record’s entries in order with the event id as message id and pops them; one published before a crash is not sent twice', async () => {
    const relay = createOutboxRelay(bus, [docs], { metrics: new Metrics('kittest'), logger, pollMs: 60_000 });
    try {
      const subj = subject('flush');
      const [a, b, c] = [entry(subj), entry(subj), entry(subj)];
      await docs.create({ _id: 1, outbox: [a, b, c] });
      // A crashed relay published the first entry but did not pop it.
      await publishEvent(bus, testEvent(a.subject), { eventId: a.event_id, payload: a.payload, trace: a.trace });

      await relay.flush(1);

      expect(await outboxOf(1)).toEqual([]);
      expect(await publishedIds(bus, subj)).toEqual([a.event_id, b.event_id, c.event_id]);
    } finally {
      relay.stop();
    }
  });

  it('a failed publish leaves the entry and those after it on the record; a later pass sends them in order', async () => {
    const metrics = new Metrics('kittest');
    const relay = createOutboxRelay(bus, [docs], { metrics, logger, pollMs: 60_000, lock: createKeyedLock<number>() });
    try {
      const good = subject('retry');
      // No stream takes this subject: JetStream refuses the publish.
      const refused = entry(`kittest-nostream.${suffix}`);
      const after = entry(good);
      await docs.create({ _id: 2, outbox: [refused, after] });

      await expect(relay.flush(2)).resolves.toBeUndefined();
      expect((await outboxOf(2)).map((e) => e.event_id)).toEqual([refused.event_id, after.event_id]);
      expect(await publishedIds(bus, good)).toEqual([]);

      // The cause goes away (here: the entry now names a subject the stream takes); the sweep sends both.
      await docs.updateOne({ _id: 2 }, { $set: { 'outbox.0.subject': good } });
      relay.kick();
      await eventually(async () => (await outboxOf(2)).length === 0);
      expect(await publishedIds(bus, good)).toEqual([refused.event_id, after.event_id]);
      const published = (await metrics.eventsPublished.get()).values.find((v) => v.labels.subject === good);
      expect(published?.value).toBe(2);
    } finally {
      relay.stop();
    }
  });

  it('with a lock, the sweep waits for the service’s write to a record and reports the backlog per collection', async () => {
    const metrics = new Metrics('kittest');
    const lock = createKeyedLock<number>();
    const relay = createOutboxRelay(bus, [docs], { metrics, logger, pollMs: 60_000, lock });
    const pending = async () =>
      (await metrics.outboxPending.get()).values.find((v) => v.labels.collection === 'outbox_docs')?.value;
    try {
      const subj = subject('locked');
      const e = entry(subj);
      await docs.create({ _id: 3, outbox: [e] });

      let release!: () => void;
      const held = lock(3, () => new Promise<void>((r) => (release = r)));
      relay.kick();
      await eventually(async () => (await pending()) === 1);
      await sleep(500);
      // The sweep found the record but is waiting for the lock: nothing popped, nothing sent.
      expect((await outboxOf(3)).map((x) => x.event_id)).toEqual([e.event_id]);
      expect(await publishedIds(bus, subj)).toEqual([]);

      release();
      await held;
      await eventually(async () => (await outboxOf(3)).length === 0);
      expect(await publishedIds(bus, subj)).toEqual([e.event_id]);
      relay.kick();
      await eventually(async () => (await pending()) === 0);
    } finally {
      relay.stop();
    }
  });

  it('concurrent writes to one record under the lock, each flushing or left to a fast sweep, lose neither a write nor an event', async () => {
    const lock = createKeyedLock<number>();
    const relay = createOutboxRelay(bus, [docs], { metrics: new Metrics('kittest'), logger, pollMs: 20, lock });
    try {
      const subj = subject('race');
      await docs.create({ _id: 4, count: 0, outbox: [] });
      const N = 40;
      const ids: string[] = [];
      let sweeping = true;
      const kicker = (async () => {
        while (sweeping) {
          relay.kick();
          await sleep(5);
        }
      })();
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          lock(4, async () => {
            const e = entry(subj);
            ids.push(e.event_id);
            await docs.updateOne({ _id: 4 }, { $inc: { count: 1 }, $push: { outbox: e } });
            // Half flush right after their write; the rest are left for the sweep, which pops between writes.
            if (i % 2 === 0) await relay.flush(4);
          }),
        ),
      );
      await eventually(async () => (await outboxOf(4)).length === 0);
      sweeping = false;
      await kicker;

      expect((await docs.findById(4).lean<Doc>())!.count).toBe(N);
      const published = await publishedIds(bus, subj);
      expect(new Set(published)).toEqual(new Set(ids));
      expect(published).toHaveLength(N);
    } finally {
      relay.stop();
    }
  });

  it('flush with the entries just written publishes them and removes them in one write, without reading the record back', async () => {
    // The shapes mongoose stores: an empty trace left out (default schema) or kept (minimize: false).
    const kept = conn.model<Doc>(
      'KeptDoc',
      new Schema<Doc>({ _id: Number, count: Number, outbox: outboxField }, { minimize: false }),
      'kept_docs',
    );
    for (const [model, id] of [
      [docs, 6],
      [kept, 7],
    ] as const) {
      const relay = createOutboxRelay(bus, [model], { metrics: new Metrics('kittest'), logger, pollMs: 60_000, lagOf: [] });
      const reads = vi.spyOn(model, 'findOne');
      try {
        const subj = subject(`written${id}`);
        const traced = { ...entry(subj), trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };
        const written = [{ ...entry(subj), trace: {} }, traced, entry(subj)];
        await model.create({ _id: id, outbox: written });

        await relay.flush(id, undefined, written);

        expect(reads).not.toHaveBeenCalled();
        expect((await model.findById(id).lean<Doc>())!.outbox).toEqual([]);
        expect(await publishedIds(bus, subj)).toEqual(written.map((e) => e.event_id));
      } finally {
        reads.mockRestore();
        relay.stop();
      }
    }
  });

  it('entries appended to a record while its entries are being published stay on it for the next pass', async () => {
    const subj = subject('appended');
    const [a, b, late] = [entry(subj), entry(subj), entry(subj)];
    // A bus whose first publish lets another writer append to the record before it completes.
    let appended = false;
    const slowBus: Bus = {
      ...bus,
      js: {
        publish: async (...args: Parameters<Bus['js']['publish']>) => {
          if (!appended) {
            appended = true;
            await docs.updateOne({ _id: 8 }, { $push: { outbox: late } });
          }
          return bus.js.publish(...args);
        },
      } as Bus['js'],
    };
    const relay = createOutboxRelay(slowBus, [docs], { metrics: new Metrics('kittest'), logger, pollMs: 60_000, lagOf: [] });
    try {
      await docs.create({ _id: 8, outbox: [a, b] });
      await relay.flush(8);
      expect((await outboxOf(8)).map((e) => e.event_id)).toEqual([late.event_id]);
      expect(await publishedIds(bus, subj)).toEqual([a.event_id, b.event_id]);

      await relay.drain();
      expect(await outboxOf(8)).toEqual([]);
      expect(await publishedIds(bus, subj)).toEqual([a.event_id, b.event_id, late.event_id]);
    } finally {
      relay.stop();
    }
  });

  it('a crash between publishing and removing leaves the entries; the next pass publishes them again under the same event ids, which the stream drops', async () => {
    const relay = createOutboxRelay(bus, [docs], { metrics: new Metrics('kittest'), logger, pollMs: 60_000, lagOf: [] });
    const subj = subject('crash');
    const written = [entry(subj), entry(subj)];
    const removal = vi.spyOn(docs.collection, 'updateOne').mockRejectedValueOnce(new Error('process died'));
    try {
      await docs.create({ _id: 9, outbox: written });
      await relay.flush(9, undefined, written);
      expect(removal).toHaveBeenCalledTimes(1);
      expect((await outboxOf(9)).map((e) => e.event_id)).toEqual(written.map((e) => e.event_id));
      expect(await publishedIds(bus, subj)).toEqual(written.map((e) => e.event_id));

      const published = vi.spyOn(bus.js, 'publish');
      await relay.drain();
      // Both sent again, with their event ids as message ids; JetStream keeps one copy of each.
      expect(published.mock.calls.map((c) => (c[2] as { msgID?: string }).msgID)).toEqual(written.map((e) => e.event_id));
      published.mockRestore();
      expect(await outboxOf(9)).toEqual([]);
      expect(await publishedIds(bus, subj)).toEqual(written.map((e) => e.event_id));
    } finally {
      removal.mockRestore();
      relay.stop();
    }
  });

  it('flush needs the model when the relay serves several collections', async () => {
    const relay = createOutboxRelay(bus, [docs, others], { metrics: new Metrics('kittest'), logger, pollMs: 60_000 });
    try {
      const subj = subject('several');
      const e = entry(subj);
      await others.create({ _id: 5, outbox: [e] });
      await expect(relay.flush(5)).rejects.toThrow(TypeError);
      await relay.flush(5, others);
      expect((await others.findById(5).lean<Doc>())!.outbox).toEqual([]);
      expect(await publishedIds(bus, subj)).toEqual([e.event_id]);
    } finally {
      relay.stop();
    }
  });
});
