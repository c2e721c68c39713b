import { describe, expect, it } from 'vitest';
import { events } from '@signet/proto';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { startConsumer, type Bus } from './nats.js';

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
