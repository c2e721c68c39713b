import type { Model } from 'mongoose';
import { publishEvent, type Bus, type Logger, type Metrics, type OutboxEntry } from '@signet/kit';

/**
 * Serialises the writes this process makes to one transaction. FerretDB 1.x applies an update as
 * read-modify-write of the whole document, so two concurrent updates of the same document (a state
 * transition and an outbox pop) can lose one of them; MongoDB cannot, but the test store is FerretDB.
 */
export function createKeyedLock() {
  const tails = new Map<number, Promise<unknown>>();
  return async function withLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
export type KeyedLock = ReturnType<typeof createKeyedLock>;

/**
 * The transaction service's outbox relay: like the kit's, it publishes each pending entry with its
 * event id as the JetStream message id and then pops it, but it does so under the same per-transaction
 * lock as the state transitions (see createKeyedLock), right after the write that added the entries.
 * A periodic sweep publishes anything a crashed process left behind.
 */
export function createTransactionOutbox(
  bus: Bus,
  model: Model<any>,
  lock: KeyedLock,
  deps: { metrics: Metrics; logger: Logger; pollMs?: number },
) {
  const publishPending = async (id: number) => {
    const doc = await model.findOne({ _id: id }, { outbox: 1 }).lean<{ outbox: OutboxEntry[] }>();
    for (const entry of doc?.outbox ?? []) {
      const payload = entry.payload as unknown as { buffer?: Uint8Array } | Buffer;
      const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from((payload as { buffer: Uint8Array }).buffer);
      await publishEvent(
        bus,
        { subject: entry.subject, eventId: entry.event_id, payload: bytes, trace: entry.trace },
        deps.metrics,
      );
      await model.updateOne({ _id: id, 'outbox.0.event_id': entry.event_id }, { $pop: { outbox: -1 } });
    }
  };
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      const docs = await model
        .find({ 'outbox.0': { $exists: true } }, { _id: 1 })
        .limit(200)
        .lean<{ _id: number }[]>();
      deps.metrics.outboxPending.set({ collection: model.collection.name }, docs.length);
      for (const d of docs) await lock(d._id, () => publishPending(d._id));
    } catch (err) {
      deps.logger.warn({ err }, 'outbox sweep failed; will retry');
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), deps.pollMs ?? 2000);
  timer.unref();
  return {
    /** Publishes the pending events of one transaction; call inside lock(id) after the write. */
    async flush(id: number): Promise<void> {
      try {
        await publishPending(id);
      } catch (err) {
        // The entries stay on the record; the sweep publishes them later.
        deps.logger.warn({ err, transaction_id: id }, 'outbox publish failed; the sweep will retry');
      }
    },
    sweep,
    stop() {
      clearInterval(timer);
    },
  };
}
export type TransactionOutbox = ReturnType<typeof createTransactionOutbox>;
