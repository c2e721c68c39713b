import {
  RetentionPolicy,
  StorageType,
  headers as natsHeaders,
  nanos,
  type JetStreamManager,
  type MsgHdrs,
  type Subscription,
} from 'nats';
import type { Bus } from './nats.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/**
 * Dead letters: a message a durable consumer failed `max_deliver` times is copied, with its headers
 * and the consumer's name, into the DEAD_LETTER_STREAM, from JetStream's max-deliveries advisory. It
 * stays there until an operator replays it (`replayDeadLetter`, the kit's `dead-letters` command),
 * which publishes it again on its own subject addressed to that one consumer.
 */
export const DEAD_LETTER_STREAM = 'SIGNET_DLQ';
/** Subjects of the dead-letter stream: `signet-dlq.<durable>` (outside the events' `signet.>`). */
export const DEAD_LETTER_PREFIX = 'signet-dlq';
/** On a replayed message: the one durable it is for; every other consumer of the subject acks it unread. */
export const REPLAY_FOR_HEADER = 'signet-replay-for';

const H = {
  consumer: 'signet-dlq-consumer',
  subject: 'signet-dlq-subject',
  streamSeq: 'signet-dlq-stream-seq',
  deliveries: 'signet-dlq-deliveries',
  eventId: 'signet-event-id',
  missing: 'signet-dlq-missing',
} as const;

/** JetStream's advisory for a message that reached a consumer's max_deliver. */
export const maxDeliveriesAdvisorySubject = (stream: string, durable: string) =>
  `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${durable}`;

type MaxDeliveriesAdvisory = { stream: string; consumer: string; stream_seq: number; deliveries: number };

export async function ensureDeadLetterStream(jsm: JetStreamManager, replicas = 1): Promise<void> {
  const config = {
    name: DEAD_LETTER_STREAM,
    subjects: [`${DEAD_LETTER_PREFIX}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    // Kept long enough to be looked at after a holiday; replayed entries are deleted at once.
    max_age: nanos(90 * 24 * 3600 * 1000),
    num_replicas: replicas,
    // The advisory reaches every replica of the consuming service: the copy is made once.
    duplicate_window: nanos(10 * 60 * 1000),
  };
  let info;
  try {
    info = await jsm.streams.info(DEAD_LETTER_STREAM);
  } catch {
    try {
      await jsm.streams.add(config);
      return;
    } catch (err) {
      info = await jsm.streams.info(DEAD_LETTER_STREAM).catch(() => {
        throw err;
      });
    }
  }
  if (info.config.num_replicas !== replicas)
    await jsm.streams.update(DEAD_LETTER_STREAM, { ...info.config, num_replicas: replicas });
}

/**
 * Listens for the max-deliveries advisory of one durable of `stream` and copies each message it names
 * into the dead-letter stream. Every replica listens; the copy's message id makes it one entry.
 */
export function watchDeadLetters(
  bus: Bus,
  stream: string,
  durable: string,
  deps: { metrics: Metrics; logger: Logger },
): Subscription {
  deps.metrics.eventsDeadLettered.inc({ consumer: durable }, 0);
  return bus.nc.subscribe(maxDeliveriesAdvisorySubject(stream, durable), {
    callback: (err, msg) => {
      if (err) return;
      let adv: MaxDeliveriesAdvisory;
      try {
        adv = msg.json<MaxDeliveriesAdvisory>();
      } catch {
        return;
      }
      deadLetter(bus, adv, deps).catch((e: unknown) =>
        deps.logger.error({ err: e, consumer: durable, streamSeq: adv.stream_seq }, 'dead-lettering failed'),
      );
    },
  });
}

async function deadLetter(bus: Bus, adv: MaxDeliveriesAdvisory, deps: { metrics: Metrics; logger: Logger }) {
  const h = natsHeaders();
  let data: Uint8Array = new Uint8Array();
  let subject = '';
  try {
    const m = await bus.jsm.streams.getMessage(adv.stream, { seq: adv.stream_seq });
    data = m.data;
    subject = m.subject;
    if (m.header) for (const [k, v] of m.header) if (!k.startsWith('Nats-')) h.set(k, v[0] ?? '');
  } catch (err) {
    // Gone from the stream (its age limit): the entry still says what failed.
    if ((err as { code?: string }).code !== '404') throw err;
    h.set(H.missing, 'true');
  }
  h.set(H.consumer, adv.consumer);
  h.set(H.subject, subject);
  h.set(H.streamSeq, String(adv.stream_seq));
  h.set(H.deliveries, String(adv.deliveries));
  if (!h.has(H.eventId)) h.set(H.eventId, `${adv.stream}:${adv.stream_seq}`);
  const ack = await bus.js.publish(`${DEAD_LETTER_PREFIX}.${adv.consumer}`, data, {
    msgID: `dlq:${adv.stream}:${adv.consumer}:${adv.stream_seq}`,
    headers: h,
  });
  if (ack.duplicate) return;
  deps.metrics.eventsDeadLettered.inc({ consumer: adv.consumer });
  deps.logger.warn(
    { consumer: adv.consumer, subject, streamSeq: adv.stream_seq, deliveries: adv.deliveries, deadLetterSeq: ack.seq },
    'event dead-lettered after its last delivery; replay it with the dead-letters command once the cause is fixed',
  );
}

export type DeadLetter = {
  /** Sequence in the dead-letter stream (what replay takes). */
  seq: number;
  consumer: string;
  subject: string;
  eventId: string;
  /** Sequence of the original in the events stream. */
  streamSeq: number;
  deliveries: number;
  deadLetteredAt: string;
  /** The original had left the events stream: the entry has no payload and cannot be replayed. */
  missing: boolean;
  bytes: number;
};

const describe = (seq: number, header: MsgHdrs | undefined, time: Date, bytes: number): DeadLetter => ({
  seq,
  consumer: header?.get(H.consumer) ?? '',
  subject: header?.get(H.subject) ?? '',
  eventId: header?.get(H.eventId) ?? '',
  streamSeq: Number(header?.get(H.streamSeq) ?? 0),
  deliveries: Number(header?.get(H.deliveries) ?? 0),
  deadLetteredAt: time.toISOString(),
  missing: header?.get(H.missing) === 'true',
  bytes,
});

/** The dead letters (oldest first), of one consumer or all; no payloads. */
export async function listDeadLetters(bus: Bus, opts: { consumer?: string } = {}): Promise<DeadLetter[]> {
  let info;
  try {
    info = await bus.jsm.streams.info(DEAD_LETTER_STREAM);
  } catch (err) {
    if ((err as { code?: string }).code === '404') return [];
    throw err;
  }
  const out: DeadLetter[] = [];
  if (info.state.messages === 0) return out;
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    let m;
    try {
      m = await bus.jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq });
    } catch (err) {
      if ((err as { code?: string }).code === '404') continue; // replayed (deleted)
      throw err;
    }
    const d = describe(m.seq, m.header, m.time, m.data.length);
    if (!opts.consumer || d.consumer === opts.consumer) out.push(d);
  }
  return out;
}

/**
 * Puts a dead letter back: publishes it on its original subject, for its consumer alone (the
 * `signet-replay-for` header; other consumers of the subject ack it unread), with its event id, so
 * the consumer's idempotent handler sees the same event again; then deletes it from the dead-letter
 * stream. Resolves with what was replayed.
 */
export async function replayDeadLetter(bus: Bus, seq: number, eventsStream: string): Promise<DeadLetter> {
  const m = await bus.jsm.streams.getMessage(DEAD_LETTER_STREAM, { seq });
  const d = describe(m.seq, m.header, m.time, m.data.length);
  if (d.missing || !d.subject)
    throw new Error(`dead letter ${seq}: the original message had left ${eventsStream}; nothing to replay`);
  const h = natsHeaders();
  for (const [k, v] of m.header ?? []) {
    if (k.startsWith('Nats-') || k.startsWith('signet-dlq-')) continue;
    h.set(k, v[0] ?? '');
  }
  h.set(REPLAY_FOR_HEADER, d.consumer);
  // A message id of its own: the original's is within the events stream's duplicate window.
  await bus.js.publish(d.subject, m.data, { msgID: `replay:${d.consumer}:${d.streamSeq}:${seq}`, headers: h });
  await bus.jsm.streams.deleteMessage(DEAD_LETTER_STREAM, seq, false);
  return d;
}
