import { randomUUID } from 'node:crypto';
import type { Model, mongo } from 'mongoose';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { eventEntries, type EventEntry } from '@signet/proto';
import { publishToSubject, startLagSampler, type Bus } from './nats.js';
import { injectContext } from './tracing.js';
import { createCoalescingRunner } from './coalescing-runner.js';

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

/**
 * The index every outbox-carrying schema declares: `schema.index(...outboxIndex)`. Sparse, so it holds
 * only documents with pending entries, and the relay's sweep query (`outbox.occurred_at` exists)
 * reads those instead of scanning the collection on MongoDB. (FerretDB 1.x accepts it and still reads the
 * table; the local store's patch, scripts/ferretdb/README.md, has PostgreSQL return only the pending ones.)
 */
export const outboxIndex = [{ 'outbox.occurred_at': 1 }, { sparse: true, name: 'outbox_pending' }] as const;

/** The sweep's query: documents with at least one pending entry (every entry has `occurred_at`). */
const PENDING = { 'outbox.occurred_at': { $exists: true } };

/**
 * Builds an outbox entry of a registry entry: `build` gets the id and time (so they are inside the
 * payload too) and returns the entry's message, which is encoded with the entry's codec. The
 * subject stored on the record is the registry's.
 */
export function outboxEvent<T>(
  event: EventEntry<T>,
  build: (meta: { event_id: string; occurred_at: string }) => T,
  eventId: string = randomUUID(),
): OutboxEntry {
  const occurred = new Date();
  return {
    event_id: eventId,
    subject: event.subject,
    payload: Buffer.from(event.message.encode(build({ event_id: eventId, occurred_at: occurred.toISOString() })).finish()),
    occurred_at: occurred,
    trace: injectContext(),
  };
}

/**
 * Serialises async work per key within this process: calls with the same key run one after another,
 * in call order; different keys run concurrently. Keys are compared by their string form. Not
 * re-entrant: code already holding a key's lock must not take it again (it would wait for itself).
 *
 * A service whose store applies an update as read-modify-write of the whole document (unpatched
 * FerretDB 1.x; the local build is patched, see scripts/ferretdb) takes one around every write to a
 * document and hands it to the outbox relay, so a state change and an outbox pop on the same
 * document never overlap and neither is lost (see docs/decisions.md).
 */
export function createKeyedLock<K = unknown>(): KeyedLock<K> {
  const tails = new Map<string, Promise<unknown>>();
  return async function withLock<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const k = String(key);
    const prev = tails.get(k) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(k, tail);
    try {
      return await run;
    } finally {
      if (tails.get(k) === tail) tails.delete(k);
    }
  };
}
export type KeyedLock<K = unknown> = <T>(key: K, fn: () => Promise<T>) => Promise<T>;

export type OutboxRelayOptions<K> = {
  metrics: Metrics;
  logger: Logger;
  /** Period of the sweep that publishes whatever is still pending (a crashed process's, a failed publish). */
  pollMs?: number;
  /**
   * The service's own per-document lock. When given, the sweep publishes each document's entries
   * inside lock(_id) (re-reading them there), so its pops never overlap the service's writes to that
   * document, which it must make under the same lock; flush(id) is then called by the service while
   * it still holds the lock, right after the write that added the entries.
   */
  lock?: KeyedLock<K>;
  /**
   * Events whose durable consumers' lag this service samples too (startLagSampler), so a consumer's
   * backlog stays visible while the service running it is down. Default: the registry entries this
   * service (`metrics.service`) produces.
   */
  lagOf?: readonly EventEntry[];
  lagSampleMs?: number;
};

/**
 * Publishes pending outbox entries of the given collections, then removes them from their document
 * in one write. A crash between publish and removal republishes the same event id, which JetStream drops as a
 * duplicate (and consumers are idempotent beyond the dedup window). A failed publish leaves the
 * entry in place for the next pass. Three ways to run it:
 * - the periodic sweep catches anything a crashed process or a failed publish left behind;
 * - kick() starts a sweep now without waiting for it (low latency after a write);
 * - flush(id) publishes one document's entries right away, awaited by the caller (with a lock: call
 *   it inside lock(id), after the write). A failed publish does not throw: it is logged and left to
 *   the sweep.
 */
export function createOutboxRelay<K = unknown>(bus: Bus, models: Model<any>[], deps: OutboxRelayOptions<K>) {
  /**
   * Publishes entries in order, then removes the published ones in one `$pullAll` (exact elements, so
   * entries appended meanwhile stay; FerretDB 1.x has no `$pull` by condition). A failed publish stops
   * the pass: what was published before it is removed, the rest stays for the sweep. `stored`: the
   * elements as read from the store; `written`: the caller's entries, shaped here as the store keeps
   * them, and checked by one re-read only if the removal matched nothing.
   */
  const publishDoc = async (model: Model<any>, id: unknown, entries: OutboxEntry[], from: 'stored' | 'written') => {
    const sent: OutboxEntry[] = [];
    let failure: unknown;
    for (const entry of entries) {
      const payload = entry.payload as unknown as { buffer?: Uint8Array } | Buffer;
      const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from((payload as { buffer: Uint8Array }).buffer);
      try {
        await publishToSubject(bus, entry.subject, { eventId: entry.event_id, payload: bytes, trace: entry.trace }, deps.metrics);
      } catch (err) {
        failure = err;
        break;
      }
      sent.push(entry);
    }
    if (sent.length) await removePublished(model, id, sent, from);
    if (failure) throw failure;
  };

  const readEntries = async (model: Model<any>, id: unknown): Promise<OutboxEntry[]> =>
    (await model.findOne({ _id: id }, { outbox: 1 }).lean<{ outbox?: OutboxEntry[] }>())?.outbox ?? [];

  /** $pullAll by the native collection: mongoose would cast the elements as new subdocuments (defaults, key order). */
  const pullAll = (model: Model<any>, _id: unknown, elements: object[]) => {
    const filter: mongo.Document = { _id };
    const update: mongo.Document = { $pullAll: { outbox: elements } };
    return model.collection.updateOne(filter, update);
  };

  const removePublished = async (model: Model<any>, id: unknown, sent: OutboxEntry[], from: 'stored' | 'written') => {
    const _id = model.schema.path('_id')?.cast(id) ?? id;
    const elements = from === 'stored' ? sent : sent.map((e) => asStored(model, e));
    const res = await pullAll(model, _id, elements);
    if (res.modifiedCount > 0 || from === 'stored') return;
    // Nothing matched the shape assumed: remove the stored elements of the events just published.
    const ids = new Set(sent.map((e) => e.event_id));
    const stored = (await readEntries(model, id)).filter((e) => ids.has(e.event_id));
    if (stored.length) await pullAll(model, _id, stored);
  };

  const pass = async () => {
    for (const model of models) {
      const docs = await model
        .find(PENDING, deps.lock ? { _id: 1, 'outbox.occurred_at': 1 } : { outbox: 1 })
        .limit(200)
        .lean<{ _id: unknown; outbox?: Pick<OutboxEntry, 'occurred_at'>[] }[]>();
      deps.metrics.outboxPending.set({ collection: model.collection.name }, docs.length);
      // The oldest entry among the documents read (all of them up to 200): the backlog's age even when
      // its size is small, e.g. one event that never gets published.
      const oldest = docs.reduce(
        (min, d) => (d.outbox ?? []).reduce((m, e) => Math.min(m, new Date(e.occurred_at).getTime()), min),
        Infinity,
      );
      deps.metrics.outboxOldestAge.set(
        { collection: model.collection.name },
        Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0,
      );
      for (const doc of docs) {
        // Under the lock the entries are re-read: a write or flush may have changed them since the find.
        if (deps.lock)
          await deps.lock(doc._id as K, async () => publishDoc(model, doc._id, await readEntries(model, doc._id), 'stored'));
        else await publishDoc(model, doc._id, (doc.outbox ?? []) as OutboxEntry[], 'stored');
      }
    }
  };

  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs: deps.pollMs ?? 1000,
    failure: 'outbox relay pass failed; will retry',
  });
  runner.start();
  const watched = deps.lagOf ?? eventEntries.filter((e) => e.producer === deps.metrics.service);
  const lag = startLagSampler(
    bus,
    [...new Set(watched.flatMap((e) => e.consumers.map((c) => c.durable)))],
    deps,
    deps.lagSampleMs,
  );
  return {
    kick: () => void runner.run(),
    /**
     * Publishes one document's pending entries now. With a lock, call it inside lock(id) right after
     * the write that added them (it does not take the lock itself). `model` may be left out when the
     * relay has one collection. `written`: the document's whole outbox as the caller just wrote it (a
     * record inserted with its entries), published without reading the document back; leave it out
     * when other entries may be pending on it (they must go first).
     */
    async flush(id: K, model?: Model<any>, written?: readonly OutboxEntry[]): Promise<void> {
      const target = model ?? (models.length === 1 ? models[0] : undefined);
      if (!target) throw new TypeError('outbox flush: name the model, the relay has several');
      try {
        if (written) await publishDoc(target, id, [...written], 'written');
        else await publishDoc(target, id, await readEntries(target, id), 'stored');
      } catch (err) {
        // The entries stay on the record; the sweep publishes them later.
        deps.logger.warn({ err, collection: target.collection.name, id }, 'outbox publish failed; the sweep will retry');
      }
    },
    async drain() {
      await runner.run();
    },
    stop() {
      void runner.stop();
      void lag.stop();
    },
  };
}

export type OutboxRelay<K = unknown> = ReturnType<typeof createOutboxRelay<K>>;

/**
 * An entry as mongoose stores it on a document of `model`: the schema's field order, and an empty
 * `trace` left out when the schema minimizes (mongoose's default), so `$pullAll` matches it exactly.
 * A repository that inserts through the driver stores its entries in this shape too.
 */
export function asStored(model: Model<any>, e: OutboxEntry): Record<string, unknown> {
  const keep = model.schema.get('minimize') === false || Object.keys(e.trace ?? {}).length > 0;
  return {
    event_id: e.event_id,
    subject: e.subject,
    payload: e.payload,
    occurred_at: e.occurred_at,
    ...(keep ? { trace: e.trace ?? {} } : {}),
  };
}
