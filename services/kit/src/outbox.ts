import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { publishEvent, type Bus } from './nats.js';
import { injectContext } from './tracing.js';

/**
 * An event waiting on the record that caused it. It is written in the same single-document update
 * as the change it announces, so either both happen or neither does.
 */
export type OutboxEntry = {
  event_id: string;
  subject: string;
  payload: Buffer;
  occurred_at: Date;
  trace: Record<string, string>;
};

/** The mongoose schema fragment every outbox-carrying document adds: `outbox: [outboxEntrySchema]`. */
export const outboxField = {
  type: [
    {
      _id: false,
      event_id: { type: String, required: true },
      subject: { type: String, required: true },
      payload: { type: Buffer, required: true },
      occurred_at: { type: Date, required: true },
      trace: { type: Object, default: {} },
    },
  ],
  default: [],
};

/** Builds an entry; `encode` gets the id and time so they are inside the payload too. */
export function outboxEvent(
  subject: string,
  encode: (meta: { event_id: string; occurred_at: string }) => Uint8Array,
  eventId: string = randomUUID(),
): OutboxEntry {
  const occurred = new Date();
  return {
    event_id: eventId,
    subject,
    payload: Buffer.from(encode({ event_id: eventId, occurred_at: occurred.toISOString() })),
    occurred_at: occurred,
    trace: injectContext(),
  };
}

/**
 * Publishes pending outbox entries of the given collections, then removes each from its document.
 * A crash between publish and removal republishes the same event id, which JetStream drops as a
 * duplicate (and consumers are idempotent beyond the dedup window). Call kick() after a write for
 * low latency; a poll catches anything a crashed process left behind.
 */
export function createOutboxRelay(bus: Bus, models: Model<any>[], deps: { metrics: Metrics; logger: Logger; pollMs?: number }) {
  let running = false;
  let again = false;
  let stopped = false;

  const pass = async () => {
    for (const model of models) {
      const docs = await model
        .find({ 'outbox.0': { $exists: true } }, { outbox: 1 })
        .limit(200)
        .lean<{ _id: unknown; outbox: OutboxEntry[] }[]>();
      deps.metrics.outboxPending.set({ collection: model.collection.name }, docs.length);
      for (const doc of docs) {
        for (const entry of doc.outbox) {
          const payload = entry.payload as unknown as { buffer?: Uint8Array } | Buffer;
          const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from((payload as { buffer: Uint8Array }).buffer);
          await publishEvent(
            bus,
            { subject: entry.subject, eventId: entry.event_id, payload: bytes, trace: entry.trace },
            deps.metrics,
          );
          // Entries are published in order, so the one just sent is the first. FerretDB 1.x does not
          // support $pull with a condition; popping the first element guarded by its id is exact.
          await model.updateOne({ _id: doc._id, 'outbox.0.event_id': entry.event_id }, { $pop: { outbox: -1 } });
        }
      }
    }
  };

  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await pass();
      } while (again && !stopped);
    } catch (err) {
      deps.logger.warn({ err }, 'outbox relay pass failed; will retry');
    } finally {
      running = false;
    }
  };

  const timer = setInterval(() => void run(), deps.pollMs ?? 1000);
  timer.unref();
  return {
    kick: () => void run(),
    async drain() {
      await run();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

export type OutboxRelay = ReturnType<typeof createOutboxRelay>;
