/**
 * Durable consumers on real JetStream: by default one message at a time in delivery order; with
 * `concurrency` several at once, never more, each acked after its own handler, a failed one
 * redelivered without holding the others back.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectBus, createLogger, Metrics, publishEvent, startConsumer, type Bus, type DeliveredEvent } from '../src/index.js';
import type { EventEntry } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';

const suffix = randomBytes(4).toString('hex');
const logger = createLogger('kit-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('startConsumer', () => {
  let bus: Bus;
  /** A test event of its own, read by the test's durable (payloads are the message number as text). */
  const testEvent = (name: string): EventEntry<string> => ({
    subject: `signet.kittest.${suffix}.${name}`,
    message: { encode: (m) => ({ finish: () => Buffer.from(m) }), decode: (b) => Buffer.from(b).toString() },
    producer: 'transaction',
    consumers: [{ service: 'transaction', durable: `kittest-${suffix}-${name}` }],
  });
  const publish = async (event: EventEntry, n: number) => {
    for (let i = 0; i < n; i++)
      await publishEvent(bus, event, { eventId: `${event.subject}-${i}`, payload: Buffer.from(String(i)) });
  };

  beforeAll(async () => {
    bus = await connectBus(inject('infra').NATS_URL, 'kit-consumer-test');
  });
  afterAll(async () => {
    await bus?.nc.drain();
  });

  /** Runs a consumer over `n` published events; reports what the handler saw. */
  async function consume(name: string, n: number, concurrency: number | undefined, fail?: (ev: DeliveredEvent) => boolean) {
    const event = testEvent(name);
    await publish(event, n);
    let active = 0;
    let maxActive = 0;
    const order: number[] = [];
    const deliveries = new Map<number, number>();
    const c = await startConsumer(
      bus,
      { durable: `kittest-${suffix}-${name}`, events: [event], ackWaitMs: 2_000, concurrency },
      async (ev) => {
        const i = Number(Buffer.from(ev.data).toString());
        deliveries.set(i, (deliveries.get(i) ?? 0) + 1);
        active++;
        maxActive = Math.max(maxActive, active);
        try {
          await sleep(20);
          if (fail?.(ev)) throw new Error('store unavailable');
          order.push(i);
        } finally {
          active--;
        }
      },
      { metrics: new Metrics('kit-consumer-test'), logger },
    );
    await eventually(async () => order.length === n && (await c.pending()) === 0, 20_000);
    await c.stop();
    return { maxActive, order, deliveries };
  }

  it('handles one message at a time, in delivery order, by default', async () => {
    const r = await consume('serial', 12, undefined);
    expect(r.maxActive).toBe(1);
    expect(r.order).toEqual([...Array(12).keys()]);
  });

  it('handles up to `concurrency` messages at once, each exactly once', async () => {
    const r = await consume('parallel', 24, 4);
    expect(r.maxActive).toBe(4);
    expect([...r.order].sort((a, b) => a - b)).toEqual([...Array(24).keys()]);
    expect([...r.deliveries.values()].every((d) => d === 1)).toBe(true);
  });

  it('redelivers a failed message while the others go on', async () => {
    const r = await consume('retry', 10, 4, (ev) => ev.deliveryCount === 1 && ev.eventId.endsWith('-3'));
    expect([...r.order].sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    expect(r.deliveries.get(3)).toBe(2);
    // Message 3 failed first and came back later, after messages behind it.
    expect(r.order.indexOf(3)).toBeGreaterThan(r.order.indexOf(4));
  });

  it('widens an existing durable from one event to two, and narrows it back (an upgrade adding a subject)', async () => {
    const durable = `kittest-${suffix}-widen`;
    const one = { ...testEvent('widen-a'), consumers: [{ service: 'transaction' as const, durable }] };
    const two = { ...testEvent('widen-b'), consumers: [{ service: 'transaction' as const, durable }] };
    const seen: string[] = [];
    const run = async (events: EventEntry<string>[]) => {
      const c = await startConsumer(bus, { durable, events, ackWaitMs: 2_000 }, async (ev) => void seen.push(ev.subject), {
        metrics: new Metrics('kit-consumer-test'),
        logger,
      });
      return c;
    };
    await (await run([one])).stop();
    const c = await run([one, two]);
    await publish(one, 1);
    await publish(two, 1);
    await eventually(async () => seen.includes(one.subject) && seen.includes(two.subject), 20_000);
    await c.stop();
    const info = await bus.jsm.consumers.info('SIGNET', durable);
    expect(info.config.filter_subjects).toEqual([one.subject, two.subject]);
    expect(info.config.filter_subject ?? '').toBe('');
    await (await run([one])).stop();
    const back = await bus.jsm.consumers.info('SIGNET', durable);
    expect(back.config.filter_subject).toBe(one.subject);
    expect(back.config.filter_subjects ?? []).toEqual([]);
  });
});
