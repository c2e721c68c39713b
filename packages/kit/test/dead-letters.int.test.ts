/**
 * Dead letters on real JetStream: a consumer whose handler always throws gets its message
 * `maxDeliver` times, then no more; the max-deliveries advisory has it copied to the dead-letter
 * stream (once, counted in signet_events_dead_lettered_total); the dead-letters command lists it and
 * puts it back for that consumer alone, under its own event id, and the entry leaves the stream.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  connectBus,
  createLogger,
  DEAD_LETTER_STREAM,
  listDeadLetters,
  Metrics,
  publishEvent,
  startConsumer,
  type Bus,
  type DeadLetter,
  type DeliveredEvent,
} from '../src/index.js';
import type { EventEntry } from '@signet/proto';
import { eventually } from '../../../test/harness/eventually.js';

const ROOT = join(import.meta.dirname, '../../..');
const suffix = randomBytes(4).toString('hex');
const logger = createLogger('kit-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const durable = `kittest-${suffix}-poison`;
const bystander = `kittest-${suffix}-bystander`;
const event: EventEntry<string> = {
  subject: `signet.kittest.${suffix}.poison`,
  message: { encode: (m) => ({ finish: () => Buffer.from(m) }), decode: (b) => Buffer.from(b).toString() },
  producer: 'transaction',
  consumers: [
    { service: 'transaction', durable },
    { service: 'ledger', durable: bystander },
  ],
};

/** The dead-letters command as an operator runs it (from the repository, on TypeScript sources). */
function command(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    ['--conditions=@signet/source', '--import', 'tsx', 'packages/kit/src/dead-letters-cli.ts', ...args],
    { cwd: ROOT, env: { ...process.env, NATS_URL: inject('infra').NATS_URL }, encoding: 'utf8', timeout: 30_000 },
  );
  const lines = r.stdout.split('\n').filter(Boolean);
  return { status: r.status, stderr: r.stderr, lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('dead letters', () => {
  let bus: Bus;
  const metrics = new Metrics('kit-dlq-test');
  const seen: DeliveredEvent[] = [];
  const bystanderSeen: DeliveredEvent[] = [];
  let failing = true;
  let consumer: Awaited<ReturnType<typeof startConsumer>>;
  let other: Awaited<ReturnType<typeof startConsumer>>;
  const deadLettered = async () =>
    (await metrics.eventsDeadLettered.get()).values.find((v) => v.labels.consumer === durable)?.value;

  beforeAll(async () => {
    bus = await connectBus(inject('infra').NATS_URL, 'kit-dlq-test');
    consumer = await startConsumer(
      bus,
      { durable, events: [event], ackWaitMs: 2_000, maxDeliver: 3, backoffMs: [100, 200] },
      async (ev) => {
        seen.push(ev);
        if (failing) throw new Error('poison');
      },
      { metrics, logger },
    );
    other = await startConsumer(
      bus,
      { durable: bystander, events: [event], ackWaitMs: 2_000 },
      async (ev) => {
        bystanderSeen.push(ev);
      },
      { metrics: new Metrics('kit-dlq-bystander'), logger },
    );
  });
  afterAll(async () => {
    await consumer?.stop();
    await other?.stop();
    await bus?.nc.drain();
  });

  it('counts no dead letter before one happens', async () => {
    expect(await deadLettered()).toBe(0);
  });

  it('gives a message up after maxDeliver failed deliveries and copies it to the dead-letter stream once', async () => {
    await publishEvent(bus, event, { eventId: `ev-${suffix}`, payload: Buffer.from('payload-1') });
    let entries: DeadLetter[] = [];
    await eventually(async () => {
      entries = await listDeadLetters(bus, { consumer: durable });
      return entries.length > 0;
    }, 20_000);
    expect(seen.map((e) => e.deliveryCount)).toEqual([1, 2, 3]);
    expect(new Set(seen.map((e) => e.eventId))).toEqual(new Set([`ev-${suffix}`]));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ consumer: durable, subject: event.subject, eventId: `ev-${suffix}`, deliveries: 3 });
    expect(entries[0]!.missing).toBe(false);
    expect(await deadLettered()).toBe(1);
    // No fourth delivery, and the healthy consumer of the same subject had it once.
    await sleep(1_500);
    expect(seen).toHaveLength(3);
    expect(bystanderSeen.map((e) => e.eventId)).toEqual([`ev-${suffix}`]);
    // Given up, it no longer counts as waiting for its ack (the lag and stall alerts read that).
    await eventually(async () => (await consumer.pending()) === 0, 10_000);
    // The stored copy carries the original bytes.
    const stored = await bus.jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq: entries[0]!.seq });
    expect(Buffer.from(stored.data).toString()).toBe('payload-1');
  });

  it('lists it with the command, without its payload', () => {
    const r = command('list', '--consumer', durable);
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ consumer: durable, eventId: `ev-${suffix}`, deliveries: 3 });
    expect(JSON.stringify(r.lines)).not.toContain('payload-1');
  });

  it('refuses a replay of no sequence (usage, exit 2) and changes nothing', async () => {
    const r = command('replay', 'abc');
    expect(r.status).toBe(2);
    expect(r.lines).toHaveLength(0);
    expect(await listDeadLetters(bus, { consumer: durable })).toHaveLength(1);
  });

  it('puts it back for its consumer alone with the replay command; the entry leaves the stream', async () => {
    failing = false;
    const [entry] = await listDeadLetters(bus, { consumer: durable });
    const r = command('replay', String(entry!.seq));
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines).toEqual([{ replayed: expect.objectContaining({ seq: entry!.seq, consumer: durable }) }]);
    await eventually(async () => seen.length === 4 && (await consumer.pending()) === 0, 20_000);
    expect(seen[3]).toMatchObject({ eventId: `ev-${suffix}`, subject: event.subject });
    expect(Buffer.from(seen[3]!.data).toString()).toBe('payload-1');
    expect(await listDeadLetters(bus, { consumer: durable })).toEqual([]);
    // The other consumer of the subject acked the replay unread.
    await eventually(async () => (await other.pending()) === 0, 10_000);
    expect(bystanderSeen).toHaveLength(1);
    // A replayed entry is gone: replaying it again fails.
    const again = command('replay', String(entry!.seq));
    expect(again.status).toBe(1);
  });
});
