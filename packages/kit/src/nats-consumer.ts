import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg } from 'nats';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EventEntry } from '@signet/proto';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { extractContext } from './tracing.js';
import { REPLAY_FOR_HEADER, watchDeadLetters } from './dead-letters.js';
import { drainRemainingMs, isDraining } from './lifecycle.js';
import { STREAM, type Bus } from './nats.js';
import { startLagSampler } from './nats-lag.js';

const tracer = trace.getTracer('signet-nats');
export type ConsumerOptions = {
  /** The JetStream durable name; each entry in `events` must declare it among its consumers. */
  durable: string;
  /** The registry entries this durable reads (its subject filter). */
  events: readonly EventEntry[];
  /** How long a delivered message may stay unacked before redelivery. */
  ackWaitMs?: number;
  maxBatch?: number;
  /**
   * Messages handled at once (default 1: in delivery order). Above 1 the handler must not depend on
   * order between messages; each is still acked only after its own handler has finished.
   */
  concurrency?: number;
  /** Period of the lag sample of this durable (startLagSampler), from start to stop. */
  lagSampleMs?: number;
  /**
   * Deliveries of one message before it is given up and copied to the dead-letter stream
   * (dead-letters.ts). Default DEFAULT_MAX_DELIVER.
   */
  maxDeliver?: number;
  /**
   * Wait before the next delivery after the n-th failed one (the last entry repeats). Default
   * DEFAULT_BACKOFF_MS: with DEFAULT_MAX_DELIVER a message is retried for about an hour.
   */
  backoffMs?: readonly number[];
};

export type StopOptions = {
  /**
   * How long stop waits for running handlers before it naks their messages back to JetStream
   * (another replica gets them at once). Default: while the process drains (runMain), what is left
   * of the drain less HAND_BACK_MARGIN_MS; otherwise no limit.
   */
  handBackAfterMs?: number;
};
const HAND_BACK_MARGIN_MS = 2_000;

export const DEFAULT_MAX_DELIVER = 20;
/** 1 s doubling to 5 min: ~8.5 min over the first 10 retries, then every 5 min. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map((s) => s * 1000);

/**
 * JetStream's own backoff schedule (redeliveries after an ack wait ran out: a handler that hung or a
 * process that died). Its first entry replaces ack_wait, so each entry is at least the ack wait; it
 * must be shorter than max_deliver.
 */
export function serverBackoff(ackWaitMs: number, backoffMs: readonly number[], maxDeliver: number): number[] {
  return backoffMs.slice(0, Math.max(1, maxDeliver - 1)).map((d) => Math.max(ackWaitMs, d));
}

/** The wait before redelivering a message whose n-th delivery (1-based) failed. */
export function nakDelay(backoffMs: readonly number[], deliveryCount: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(Math.max(deliveryCount, 1), backoffMs.length) - 1]!;
}

export type DeliveredEvent = {
  subject: string;
  data: Uint8Array;
  eventId: string;
  redelivered: boolean;
  deliveryCount: number;
};

type Deps = { metrics: Metrics; logger: Logger };
type Settings = { ackWaitMs: number; maxDeliver: number; backoffMs: readonly number[] };

/** Checks the options against the registry and creates or updates the durable to match them. */
async function ensureDurable(bus: Bus, opts: ConsumerOptions): Promise<Settings> {
  const undeclared = opts.events.filter((e) => !e.consumers.some((c) => c.durable === opts.durable));
  if (opts.events.length === 0 || undeclared.length > 0) {
    throw new TypeError(
      `consumer ${opts.durable}: not declared in the event registry for ${undeclared.map((e) => e.subject).join(', ') || 'any event'}`,
    );
  }
  const subjects = opts.events.map((e) => e.subject);
  const ackWaitMs = opts.ackWaitMs ?? 30_000;
  const maxDeliver = opts.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoffMs = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (!(Number.isInteger(maxDeliver) && maxDeliver >= 2) || backoffMs.length === 0) {
    throw new TypeError(`consumer ${opts.durable}: maxDeliver must be an integer ≥ 2 and backoffMs not empty`);
  }
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    max_deliver: maxDeliver,
    backoff: serverBackoff(ackWaitMs, backoffMs, maxDeliver).map((ms) => nanos(ms)),
    // Both named, one empty: an update is merged into the durable's existing config (nats.js), so an
    // upgrade from one subject to several (or back) must clear the other field or JetStream refuses both.
    ...(subjects.length === 1
      ? { filter_subject: subjects[0], filter_subjects: undefined }
      : { filter_subject: undefined, filter_subjects: subjects }),
  };
  try {
    await bus.jsm.consumers.info(STREAM, opts.durable);
    await bus.jsm.consumers.update(STREAM, opts.durable, config);
  } catch {
    await bus.jsm.consumers.add(STREAM, config);
  }
  return { ackWaitMs, maxDeliver, backoffMs };
}

/** The event a message carries, with its trace context (the publisher's span is the parent). */
function deliveredEvent(m: JsMsg): { ev: DeliveredEvent; carrier: Record<string, string> } {
  const carrier: Record<string, string> = {};
  if (m.headers) for (const [k, v] of m.headers) carrier[k] = v[0] ?? '';
  const ev: DeliveredEvent = {
    subject: m.subject,
    data: m.data,
    eventId: carrier['signet-event-id'] ?? `${m.info.stream}:${m.seq}`,
    redelivered: m.redelivered,
    deliveryCount: m.info.redeliveryCount,
  };
  return { ev, carrier };
}

/**
 * Runs the handler for one message and settles it: ack after success, nak with the backoff after a
 * failure; a message handed back at stop is left alone (another replica has it now).
 */
function messageHandler(
  opts: ConsumerOptions,
  settings: Settings,
  handler: (ev: DeliveredEvent) => Promise<void>,
  handedBack: Set<JsMsg>,
  deps: Deps,
) {
  return async (m: JsMsg) => {
    const { ev, carrier } = deliveredEvent(m);
    // A dead letter replayed for another consumer of this subject: not ours.
    const replayFor = carrier[REPLAY_FOR_HEADER];
    if (replayFor !== undefined && replayFor !== opts.durable) {
      m.ack();
      return;
    }
    const parent = extractContext(carrier);
    const span = tracer.startSpan(
      `consume ${m.subject}`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats' } },
      parent,
    );
    if (m.redelivered) deps.metrics.eventRedeliveries.inc({ consumer: opts.durable });
    try {
      await context.with(trace.setSpan(parent, span), () => handler(ev));
      if (handedBack.has(m)) return;
      m.ack();
      deps.metrics.eventsConsumed.inc({ consumer: opts.durable, result: 'ok' });
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      // Handed back at stop (its stores may be closing under it): another replica has it now.
      if (handedBack.has(m)) return;
      deps.metrics.eventsConsumed.inc({ consumer: opts.durable, result: 'error' });
      const last = ev.deliveryCount >= settings.maxDeliver;
      deps.logger.error(
        { err, subject: m.subject, consumer: opts.durable, delivery: ev.deliveryCount, maxDeliver: settings.maxDeliver },
        last
          ? 'event handler failed its last delivery; the event goes to the dead-letter stream'
          : 'event handler failed; will be redelivered',
      );
      m.nak(nakDelay(settings.backoffMs, ev.deliveryCount));
    } finally {
      span.end();
    }
  };
}

/** What a running consumer tracks between its pull loop and its stop. */
type Running = {
  messages: ConsumerMessages;
  loop: Promise<void>;
  inflight: Set<Promise<void>>;
  /** Messages whose handler runs, and those of them handed back at stop (never acked here then). */
  running: Set<JsMsg>;
  handedBack: Set<JsMsg>;
};

/** Pulls messages and runs up to `concurrency` handlers at once until the subscription closes. */
function pullLoop(
  r: Omit<Running, 'loop'>,
  handle: (m: JsMsg) => Promise<void>,
  concurrency: number,
  durable: string,
  deps: Deps,
) {
  return (async () => {
    for await (const m of r.messages) {
      // A handler failure naks its message inside handle(); this catches only a failed ack or nak,
      // after which the message is redelivered when its ack wait ends.
      r.running.add(m);
      const job: Promise<void> = handle(m)
        .catch((err: unknown) => deps.logger.error({ err, consumer: durable }, 'ack or nak failed; redelivery will follow'))
        .finally(() => {
          r.inflight.delete(job);
          r.running.delete(m);
        });
      r.inflight.add(job);
      if (r.inflight.size >= concurrency) await Promise.race(r.inflight);
    }
  })();
}

/**
 * Stops pulling and waits for the running handlers, up to the budget; past it, their messages are
 * handed back (nak) so another replica takes them at once instead of after their ack wait.
 */
async function stopRunning(r: Running, durable: string, stopOpts: StopOptions, deps: Deps): Promise<'handed-back' | 'finished'> {
  const budget =
    stopOpts.handBackAfterMs ?? (isDraining() ? Math.max(0, drainRemainingMs() - HAND_BACK_MARGIN_MS) : Number.POSITIVE_INFINITY);
  // No more pulls from here on; closing completes (and the pull loop ends) only once the handler
  // the loop waits on (at `concurrency`) is done, so all three are raced against the budget.
  const closed = r.messages.close();
  const finished = Promise.all([closed, r.loop.catch(() => undefined)]).then(() => Promise.all(r.inflight));
  if (Number.isFinite(budget)) {
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      finished.then(() => false),
      new Promise<boolean>((res) => (timer = setTimeout(() => res(true), budget))),
    ]);
    clearTimeout(timer);
    if (late) {
      // The handlers' writes are idempotent, so the replica that takes the message over is safe.
      for (const m of r.running) {
        r.handedBack.add(m);
        m.nak();
      }
      deps.logger.warn({ consumer: durable, handed_back: r.handedBack.size }, 'stopping: handed unfinished events back');
      return 'handed-back';
    }
  }
  await finished;
  return 'finished';
}

/**
 * A durable pull consumer with explicit acks. The handler must do its write idempotently (the
 * event id is the key) and return; only then is the message acked. A handler that throws gets the
 * message redelivered after a backoff. Killing the process at any line leaves the message
 * unacked, so it comes back and the idempotent write makes the second pass change nothing.
 * From start to stop its lag is sampled from JetStream (startLagSampler, every `lagSampleMs`).
 */
export async function startConsumer(
  bus: Bus,
  opts: ConsumerOptions,
  handler: (ev: DeliveredEvent) => Promise<void>,
  deps: Deps,
): Promise<{ stop(stopOpts?: StopOptions): Promise<void>; pending(): Promise<number> }> {
  const settings = await ensureDurable(bus, opts);
  // Listening before the first delivery, so no advisory of this consumer is missed while it runs.
  const deadLetters = watchDeadLetters(bus, STREAM, opts.durable, deps);
  // Exported from 0 before the first delivery: a counter that appears at its first increment hides
  // that event from increase(), so SignetConsumerStuck would not see the first progress after a restart.
  for (const result of ['ok', 'error']) deps.metrics.eventsConsumed.inc({ consumer: opts.durable, result }, 0);
  deps.metrics.eventRedeliveries.inc({ consumer: opts.durable }, 0);
  await bus.nc.flush();
  const consumer = await bus.js.consumers.get(STREAM, opts.durable);
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: Math.max(opts.maxBatch ?? 16, concurrency) });
  const state = { messages, inflight: new Set<Promise<void>>(), running: new Set<JsMsg>(), handedBack: new Set<JsMsg>() };
  const lag = startLagSampler(bus, [opts.durable], deps, opts.lagSampleMs);
  const handle = messageHandler(opts, settings, handler, state.handedBack, deps);
  const r: Running = { ...state, loop: pullLoop(state, handle, concurrency, opts.durable, deps) };

  return {
    async stop(stopOpts: StopOptions = {}) {
      await lag.stop();
      await stopRunning(r, opts.durable, stopOpts, deps);
      // After the last nak: its advisory may still come while other replicas run, and they copy it.
      deadLetters.unsubscribe();
    },
    async pending() {
      const info = await bus.jsm.consumers.info(STREAM, opts.durable);
      deps.metrics.consumerPending.set({ consumer: opts.durable }, info.num_pending);
      deps.metrics.consumerAckPending.set({ consumer: opts.durable }, info.num_ack_pending);
      return info.num_pending + info.num_ack_pending;
    },
  };
}
