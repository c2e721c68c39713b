/**
 * A consumer stopping while a handler still runs (biometrics in the middle of an analysis when its pod
 * is replaced) hands the message back past its budget: JetStream delivers it to another replica at
 * once instead of after the ack wait, and the stopped replica never acks it. Within the budget, stop
 * waits for the handler and acks as usual.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectBus, createLogger, Metrics, publishEvent, startConsumer, type Bus, type DeliveredEvent } from '../src/index.js';
import type { EventEntry } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';

const suffix = randomBytes(4).toString('hex');
const logger = createLogger('kit-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const testEvent = (name: string): EventEntry<string> => ({
  subject: `signet.kittest.${suffix}.${name}`,
  message: { encode: (m) => ({ finish: () => Buffer.from(m) }), decode: (b) => Buffer.from(b).toString() },
  producer: 'transaction',
  consumers: [{ service: 'biometrics', durable: `kittest-${suffix}-${name}` }],
});

describe('stopping a consumer with a handler running', () => {
  let bus: Bus;
  const deps = () => ({ metrics: new Metrics('kit-hand-back-test'), logger });
  beforeAll(async () => {
    bus = await connectBus(inject('infra').NATS_URL, 'kit-hand-back-test');
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  it('hands the message back past the budget: another replica gets it long before the ack wait', async () => {
    const event = testEvent('slow');
    const durable = `kittest-${suffix}-slow`;
    const opts = { durable, events: [event], ackWaitMs: 30_000 };
    const first: DeliveredEvent[] = [];
    let firstFinished = false;
    const a = await startConsumer(
      bus,
      opts,
      async (ev) => {
        first.push(ev);
        await sleep(4_000);
        firstFinished = true;
      },
      deps(),
    );
    await publishEvent(bus, event, { eventId: `slow-${suffix}`, payload: Buffer.from('x') });
    await eventually(async () => first.length === 1, 10_000);
    // The replacement replica, pulling from the same durable.
    const second: DeliveredEvent[] = [];
    const b = await startConsumer(bus, opts, async (ev) => void second.push(ev), deps());
    const started = Date.now();
    await a.stop({ handBackAfterMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await eventually(async () => second.length === 1, 10_000);
    // Well inside the 30 s ack wait, as its second delivery.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(second[0]).toMatchObject({ eventId: `slow-${suffix}`, deliveryCount: 2 });
    await eventually(async () => (await b.pending()) === 0, 10_000);
    // The first handler ends later; its message was handed back, so it acks nothing.
    await eventually(async () => firstFinished, 10_000);
    await sleep(500);
    expect(second).toHaveLength(1);
    await b.stop();
  });

  it('waits for a handler that ends within the budget and acks its message', async () => {
    const event = testEvent('quick');
    const durable = `kittest-${suffix}-quick`;
    const seen: DeliveredEvent[] = [];
    const c = await startConsumer(
      bus,
      { durable, events: [event], ackWaitMs: 30_000 },
      async (ev) => {
        seen.push(ev);
        await sleep(500);
      },
      deps(),
    );
    await publishEvent(bus, event, { eventId: `quick-${suffix}`, payload: Buffer.from('x') });
    await eventually(async () => seen.length === 1, 10_000);
    const started = Date.now();
    await c.stop({ handBackAfterMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(4_000);
    await eventually(async () => {
      const info = await bus.jsm.consumers.info('SIGNET', durable);
      return info.num_ack_pending + info.num_pending === 0;
    }, 5_000);
    expect((await bus.jsm.consumers.info('SIGNET', durable)).num_redelivered).toBe(0);
    expect(seen).toHaveLength(1);
  });
});
