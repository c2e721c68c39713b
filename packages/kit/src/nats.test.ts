import { describe, expect, it } from 'vitest';
import { events } from '@signet/proto';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_DELIVER,
  nakDelay,
  serverBackoff,
  startConsumer,
  streamConfig,
  type Bus,
} from './nats.js';
import { configureProcess, grpcServerOptions } from './process-settings.js';

describe('startConsumer', () => {
  const deps = { metrics: new Metrics('kittest'), logger: createLogger('kit-test', 'silent') };
  // Refused before the bus is touched: the registry is checked first.
  const bus = {} as Bus;

  it('refuses a durable the registry does not declare as a consumer of the event', async () => {
    await expect(
      startConsumer(bus, { durable: 'billing-identity-user-created', events: [events.captureSubmitted] }, async () => {}, deps),
    ).rejects.toThrow(
      'consumer billing-identity-user-created: not declared in the event registry for signet.ceremony.capture.submitted',
    );
  });

  it('refuses a consumer of no event', async () => {
    await expect(startConsumer(bus, { durable: 'transaction-state', events: [] }, async () => {}, deps)).rejects.toThrow(
      TypeError,
    );
  });
});

describe('redelivery schedule', () => {
  it('waits the n-th entry after the n-th failed delivery, then repeats the last', () => {
    expect([1, 2, 3, 4].map((n) => nakDelay([100, 200, 400], n))).toEqual([100, 200, 400, 400]);
  });

  it('retries a message for about an hour by default before it is dead-lettered', () => {
    const total = Array.from({ length: DEFAULT_MAX_DELIVER - 1 }, (_, i) => nakDelay(DEFAULT_BACKOFF_MS, i + 1)).reduce(
      (a, b) => a + b,
    );
    expect(total / 60_000).toBeGreaterThan(45);
    expect(total / 60_000).toBeLessThan(75);
  });

  it('gives JetStream a schedule that starts at the ack wait and is shorter than max_deliver', () => {
    expect(serverBackoff(30_000, [1_000, 60_000, 300_000], 20)).toEqual([30_000, 60_000, 300_000]);
    expect(serverBackoff(2_000, [100, 200, 400, 800], 3)).toEqual([2_000, 2_000]);
  });

  it('refuses a maxDeliver below 2 before touching the bus', async () => {
    const deps = { metrics: new Metrics('kittest2'), logger: createLogger('kit-test', 'silent') };
    await expect(
      startConsumer(
        {} as Bus,
        { durable: 'transaction-state', events: [events.captureSubmitted], maxDeliver: 1 },
        async () => {},
        deps,
      ),
    ).rejects.toThrow(/maxDeliver/);
  });
});

describe('the SIGNET stream configuration', () => {
  it('takes replicas, age and size from the process settings and refuses new events when full', () => {
    const c = streamConfig({ replicas: 3, maxAgeDays: 7, maxBytes: 10 * 2 ** 30 });
    expect(c).toMatchObject({ name: 'SIGNET', num_replicas: 3, max_bytes: 10 * 2 ** 30, discard: 'new' });
    expect(c.max_age).toBe(7 * 24 * 3600 * 1e9);
  });

  it('defaults to one replica, 30 days and no size limit; runMain applies the configuration', () => {
    expect(streamConfig()).toMatchObject({ num_replicas: 1, max_bytes: -1, max_age: 30 * 24 * 3600 * 1e9 });
    const s = configureProcess({ EVENTS_STREAM_REPLICAS: 3, GRPC_MAX_CONNECTION_AGE_MS: 300_000 });
    try {
      expect(streamConfig().num_replicas).toBe(3);
      expect(grpcServerOptions(s)).toMatchObject({
        'grpc.max_connection_age_ms': 300_000,
        'grpc.max_connection_age_grace_ms': 60_000,
      });
    } finally {
      configureProcess({});
    }
    expect(grpcServerOptions()).not.toHaveProperty('grpc.max_connection_age_ms');
  });
});
