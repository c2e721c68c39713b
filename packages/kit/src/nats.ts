import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  connect,
  headers as natsHeaders,
  nanos,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from 'nats';
import type { EventEntry } from '@signet/proto';
import type { Metrics } from './metrics.js';
import { injectContext } from './tracing.js';
import { ensureDeadLetterStream } from './dead-letters.js';
import { processSettings, type ProcessSettings } from './process-settings.js';

export const STREAM = 'SIGNET';

export type Bus = {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
};

/** Connects and makes sure the SIGNET stream exists (idempotent across replicas). */
export async function connectBus(url: string, name: string): Promise<Bus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
  const jsm = await nc.jetstreamManager();
  await ensureStream(jsm);
  await ensureDeadLetterStream(jsm, processSettings().stream.replicas);
  return { nc, js: nc.jetstream(), jsm };
}

/** The SIGNET stream's configuration from the process settings (EVENTS_STREAM_*). */
export function streamConfig(settings: ProcessSettings['stream'] = processSettings().stream) {
  return {
    name: STREAM,
    subjects: ['signet.>'],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    num_replicas: settings.replicas,
    max_age: nanos(settings.maxAgeDays * 24 * 3600 * 1000),
    max_bytes: settings.maxBytes,
    // Full: new events are refused (they wait in the outboxes, whose backlog alerts), never old ones dropped.
    discard: DiscardPolicy.New,
    // Publishing is deduplicated by event_id within this window (the outbox relay may retry).
    duplicate_window: nanos(10 * 60 * 1000),
  };
}

/**
 * Creates the SIGNET stream, or brings an existing one to the configured replicas, age and size
 * limits (JetStream changes replicas in place on a cluster). Idempotent across replicas.
 */
export async function ensureStream(jsm: JetStreamManager): Promise<void> {
  const config = streamConfig();
  let info;
  try {
    info = await jsm.streams.info(STREAM);
  } catch {
    try {
      await jsm.streams.add(config);
      return;
    } catch (err) {
      // Another replica created it first.
      info = await jsm.streams.info(STREAM).catch(() => {
        throw err;
      });
    }
  }
  const c = info.config;
  if (
    c.num_replicas !== config.num_replicas ||
    c.max_age !== config.max_age ||
    c.max_bytes !== config.max_bytes ||
    c.discard !== config.discard
  ) {
    await jsm.streams.update(STREAM, { ...c, ...config });
  }
}

export type OutgoingEvent = {
  eventId: string;
  /** The entry's message, encoded (`entry.message.encode(...).finish()`). */
  payload: Uint8Array;
  /** Trace context captured when the event was written (outbox), else the active one. */
  trace?: Record<string, string>;
};

/**
 * Publishes an event of a registry entry with the event id as the JetStream message id, so a
 * retried publish is a no-op. Services publish through the outbox (`outboxEvent(entry, ...)`); this
 * is for the relay and for tests that play another service.
 */
export async function publishEvent(bus: Bus, entry: EventEntry, ev: OutgoingEvent, metrics?: Metrics): Promise<void> {
  await publishToSubject(bus, entry.subject, ev, metrics);
}

/**
 * The outbox relay's publish: an outbox entry carries the subject its registry entry gave it when it
 * was written (see outboxEvent). Not exported from the kit.
 */
export async function publishToSubject(bus: Bus, subject: string, ev: OutgoingEvent, metrics?: Metrics): Promise<void> {
  const h = natsHeaders();
  for (const [k, v] of Object.entries(ev.trace ?? injectContext())) h.set(k, v);
  h.set('signet-event-id', ev.eventId);
  await bus.js.publish(subject, ev.payload, { msgID: ev.eventId, headers: h });
  metrics?.eventsPublished.inc({ subject });
}

// The lag sampler and the consumer live beside this module; they are exported from here too.
export { LAG_SAMPLE_MS, startLagSampler, type LagSampler } from './nats-lag.js';
export {
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_DELIVER,
  nakDelay,
  serverBackoff,
  startConsumer,
  type ConsumerOptions,
  type DeliveredEvent,
  type StopOptions,
} from './nats-consumer.js';
