import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per service instance (tests build several in one process). Shared instruments are
 * declared here; services declare their domain counters on the same registry. Labels stay
 * low-cardinality: route templates, method names, codes — never ids, emails or references.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly grpcServerDuration: Histogram<'method' | 'code'>;
  readonly grpcClientDuration: Histogram<'method' | 'code'>;
  readonly eventsPublished: Counter<'subject'>;
  readonly eventsConsumed: Counter<'consumer' | 'result'>;
  readonly eventRedeliveries: Counter<'consumer'>;
  readonly eventsDeadLettered: Counter<'consumer'>;
  readonly consumerPending: Gauge<'consumer'>;
  readonly consumerAckPending: Gauge<'consumer'>;
  readonly outboxPending: Gauge<'collection'>;
  readonly outboxOldestAge: Gauge<'collection'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
    this.httpDuration = new Histogram({
      name: 'signet_http_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets,
      registers: [this.registry],
    });
    this.grpcServerDuration = new Histogram({
      name: 'signet_grpc_server_handling_seconds',
      help: 'gRPC server handling time by method and status code',
      labelNames: ['method', 'code'],
      buckets,
      registers: [this.registry],
    });
    this.grpcClientDuration = new Histogram({
      name: 'signet_grpc_client_handling_seconds',
      help: 'gRPC client call time by method and status code',
      labelNames: ['method', 'code'],
      buckets,
      registers: [this.registry],
    });
    this.eventsPublished = this.counter('signet_events_published_total', 'Events published to JetStream', ['subject']);
    this.eventsConsumed = this.counter('signet_events_consumed_total', 'Events handled by durable consumers', [
      'consumer',
      'result',
    ]);
    this.eventRedeliveries = this.counter('signet_events_redelivered_total', 'Events received again after a missed ack', [
      'consumer',
    ]);
    // Counted by the replica that copied the message (dead-letters.ts); 0 from the consumer's start.
    this.eventsDeadLettered = this.counter(
      'signet_events_dead_lettered_total',
      'Events copied to the dead-letter stream after their consumer failed max_deliver times',
      ['consumer'],
    );
    // Sampled from JetStream consumer info (startLagSampler): by the service running the durable, and
    // by the service producing its events, so the lag stays visible while the consumer's service is down.
    this.consumerPending = new Gauge({
      name: 'signet_events_consumer_pending',
      help: 'Messages not yet delivered to a durable consumer (lag), from JetStream consumer info',
      labelNames: ['consumer'],
      registers: [this.registry],
    });
    this.consumerAckPending = new Gauge({
      name: 'signet_events_consumer_ack_pending',
      help: 'Messages delivered to a durable consumer and not yet acked (in a handler or awaiting redelivery)',
      labelNames: ['consumer'],
      registers: [this.registry],
    });
    this.outboxPending = new Gauge({
      name: 'signet_outbox_pending',
      help: 'Documents holding unpublished outbox events at the last relay pass',
      labelNames: ['collection'],
      registers: [this.registry],
    });
    this.outboxOldestAge = new Gauge({
      name: 'signet_outbox_oldest_age_seconds',
      help: 'Age of the oldest unpublished outbox event at the last relay pass (0 when none)',
      labelNames: ['collection'],
      registers: [this.registry],
    });
  }

  /**
   * A counter. `known` names label values to export at 0 from the start, every combination of them: a
   * series that appears at its first increment hides that event from increase() and rate(), so an
   * alert misses the first failure after a restart. (A counter without labels starts at 0 anyway.)
   */
  counter<L extends string>(name: string, help: string, labelNames: L[] = [], known?: Record<L, readonly string[]>): Counter<L> {
    const counter = new Counter({ name, help, labelNames, registers: [this.registry] });
    if (known) for (const labels of combinations(labelNames, known)) counter.inc(labels, 0);
    return counter;
  }

  histogram<L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }

  gauge<L extends string>(name: string, help: string, labelNames: L[] = []): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}

/** Every combination of the known values of `labels` (one label set per combination). */
export function combinations<L extends string>(labels: readonly L[], known: Record<L, readonly string[]>): Record<L, string>[] {
  return labels.reduce<Record<string, string>[]>(
    (sets, label) => sets.flatMap((set) => known[label].map((value) => ({ ...set, [label]: value }))),
    [{}],
  ) as Record<L, string>[];
}
