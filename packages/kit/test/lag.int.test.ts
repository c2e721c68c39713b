/**
 * Lag and backlog on real JetStream and FerretDB/MongoDB, read from /metrics as Prometheus would:
 * a durable consumer's pending and ack-pending counts sampled from JetStream consumer info — by the
 * service running the consumer, and by the service producing its events while nobody consumes — and
 * the age of the oldest unpublished outbox entry.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Schema, type Connection } from 'mongoose';
import {
  closeServer,
  connectBus,
  connectMongo,
  createKeyedLock,
  createLogger,
  createOpsApp,
  createOutboxRelay,
  listen,
  Metrics,
  outboxEvent,
  outboxField,
  outboxIndex,
  publishEvent,
  STREAM,
  startConsumer,
  type Bus,
  type OutboxEntry,
} from '../src/index.js';
import type { EventEntry } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';

const suffix = randomBytes(4).toString('hex');
const logger = createLogger('kit-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A test event of its own, read by the test's durable (payloads are the message number as text). */
const testEvent = (name: string): EventEntry<string> => ({
  subject: `signet.kittest.${suffix}.${name}`,
  message: { encode: (m) => ({ finish: () => Buffer.from(m) }), decode: (b) => Buffer.from(b).toString() },
  producer: 'transaction',
  consumers: [{ service: 'ledger', durable: `kittest-${suffix}-${name}` }],
});

describe('consumer lag and outbox age on /metrics', () => {
  let bus: Bus;
  let conn: Connection;
  const servers: Server[] = [];

  /** Serves the registry on an ops port, as a service does, and returns a reader of one sample. */
  async function scrape(metrics: Metrics) {
    const { server, port } = await listen(createOpsApp(metrics, []), 0, '127.0.0.1');
    servers.push(server);
    return async (name: string, labels: string): Promise<number | undefined> => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
      return line === undefined ? undefined : Number(line.split(' ').at(-1));
    };
  }

  const publish = async (event: EventEntry, n: number) => {
    for (let i = 0; i < n; i++)
      await publishEvent(bus, event, { eventId: `${event.subject}-${i}`, payload: Buffer.from(String(i)) });
  };

  beforeAll(async () => {
    const infra = inject('infra');
    bus = await connectBus(infra.NATS_URL, 'kit-lag-test');
    conn = await connectMongo(infra.MONGO_URL, `t_${suffix}_kit_lag`);
  });
  afterAll(async () => {
    for (const s of servers) await closeServer(s);
    await bus?.nc.drain();
    await conn?.dropDatabase();
    await conn?.close();
  });

  it('the consumer’s service exports pending and ack-pending while its handler is stuck, and 0 once it catches up', async () => {
    const event = testEvent('stuck');
    const durable = event.consumers[0]!.durable;
    const metrics = new Metrics('kittest');
    const read = await scrape(metrics);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const c = await startConsumer(bus, { durable, events: [event], maxBatch: 4, lagSampleMs: 200 }, () => gate, {
      metrics,
      logger,
    });
    try {
      await eventually(async () => (await read('signet_events_consumer_pending', `consumer="${durable}"`)) === 0);
      await publish(event, 30);
      // Nothing is acked: every message is either waiting (pending) or held by the stuck handler (ack-pending).
      await eventually(async () => {
        const pending = await read('signet_events_consumer_pending', `consumer="${durable}"`);
        const ackPending = await read('signet_events_consumer_ack_pending', `consumer="${durable}"`);
        return pending! >= 20 && ackPending! >= 1 && pending! + ackPending! === 30;
      }, 30_000);
      release();
      await eventually(async () => {
        const pending = await read('signet_events_consumer_pending', `consumer="${durable}"`);
        const ackPending = await read('signet_events_consumer_ack_pending', `consumer="${durable}"`);
        return pending === 0 && ackPending === 0;
      }, 30_000);
    } finally {
      release();
      await c.stop();
      await bus.jsm.consumers.delete(STREAM, durable);
    }
  });

  it('the producing service exports the lag of a consumer whose service is stopped', async () => {
    const event = testEvent('stopped');
    const durable = event.consumers[0]!.durable;
    // The consumer's service ran once (its durable exists), then stopped.
    const c = await startConsumer(bus, { durable, events: [event] }, async () => undefined, {
      metrics: new Metrics('kittest-ledger'),
      logger,
    });
    await c.stop();

    const metrics = new Metrics('kittest-producer');
    const read = await scrape(metrics);
    const Doc = conn.model('LagDoc', new Schema({ _id: Number, outbox: outboxField }), 'lag_docs');
    const relay = createOutboxRelay(bus, [Doc], { metrics, logger, lagOf: [event], lagSampleMs: 200 });
    try {
      await eventually(async () => (await read('signet_events_consumer_pending', `consumer="${durable}"`)) === 0);
      await publish(event, 25);
      await eventually(async () => (await read('signet_events_consumer_pending', `consumer="${durable}"`)) === 25, 30_000);
      expect(await read('signet_events_consumer_ack_pending', `consumer="${durable}"`)).toBe(0);
    } finally {
      relay.stop();
      await bus.jsm.consumers.delete(STREAM, durable);
    }
  });

  it('exports nothing for a durable that does not exist', async () => {
    const event = testEvent('never');
    const metrics = new Metrics('kittest-producer');
    const read = await scrape(metrics);
    const Doc = conn.model('NeverDoc', new Schema({ _id: Number, outbox: outboxField }), 'never_docs');
    const relay = createOutboxRelay(bus, [Doc], { metrics, logger, lagOf: [event], lagSampleMs: 200 });
    try {
      // The relay's pass has run (its outbox gauge is there); the missing durable left no lag series.
      await eventually(async () => (await read('signet_outbox_pending', 'collection="never_docs"')) === 0);
      await new Promise((r) => setTimeout(r, 600));
      expect(await read('signet_events_consumer_pending', `consumer="${event.consumers[0]!.durable}"`)).toBeUndefined();
    } finally {
      relay.stop();
    }
  });

  it('exports the age of the oldest unpublished outbox entry, with and without a lock, and 0 once published', async () => {
    type Doc = { _id: number; outbox: OutboxEntry[] };
    const schema = new Schema<Doc>({ _id: Number, outbox: outboxField });
    schema.index(...outboxIndex);
    const Doc = conn.model<Doc>('AgeDoc', schema, 'age_docs');
    await Doc.init();
    // An entry written ten minutes ago on a subject the stream does not take: every publish fails.
    const stuck = { ...outboxEvent(testEvent('age'), (m) => m.event_id), subject: `kittest.${suffix}.nostream` };
    stuck.occurred_at = new Date(Date.now() - 600_000);
    await Doc.create({ _id: 1, outbox: [stuck] });

    for (const lock of [undefined, createKeyedLock<number>()]) {
      const metrics = new Metrics('kittest');
      const read = await scrape(metrics);
      const relay = createOutboxRelay<number>(bus, [Doc], { metrics, logger, pollMs: 200, lock, lagOf: [] });
      try {
        await eventually(async () => (await read('signet_outbox_oldest_age_seconds', 'collection="age_docs"'))! >= 600);
      } finally {
        relay.stop();
      }
    }

    await Doc.updateOne({ _id: 1 }, { $set: { 'outbox.0.subject': testEvent('age').subject } });
    const metrics = new Metrics('kittest');
    const read = await scrape(metrics);
    const relay = createOutboxRelay(bus, [Doc], { metrics, logger, pollMs: 200, lagOf: [] });
    try {
      await eventually(async () => (await Doc.findById(1).lean<Doc>())!.outbox.length === 0);
      await eventually(async () => (await read('signet_outbox_oldest_age_seconds', 'collection="age_docs"')) === 0);
    } finally {
      relay.stop();
    }
  });
});
