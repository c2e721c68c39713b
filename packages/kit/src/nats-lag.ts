import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { createCoalescingRunner } from './coalescing-runner.js';
import { STREAM, type Bus } from './nats.js';

/** Default period of the consumer lag sample (about one Prometheus scrape interval). */
export const LAG_SAMPLE_MS = 15_000;

export type LagSampler = {
  /** Samples now (coalesced with a running sample); resolves when done. */
  sample(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Samples the JetStream consumer info of durable consumers every `periodMs` into
 * `signet_events_consumer_pending` (messages not yet delivered) and
 * `signet_events_consumer_ack_pending` (delivered, not yet acked: in a handler or waiting for
 * redelivery), one sample now and then on the timer. A durable that does not exist (yet) exports
 * nothing. A failed sample (NATS down) is logged and the gauges keep their last value until the next.
 */
export function startLagSampler(
  bus: Bus,
  durables: readonly string[],
  deps: { metrics: Metrics; logger: Logger },
  periodMs: number = LAG_SAMPLE_MS,
): LagSampler {
  const pass = async () => {
    for (const durable of durables) {
      let info;
      try {
        info = await bus.jsm.consumers.info(STREAM, durable);
      } catch (err) {
        if ((err as { code?: string }).code !== '404') throw err;
        deps.metrics.consumerPending.remove({ consumer: durable });
        deps.metrics.consumerAckPending.remove({ consumer: durable });
        continue;
      }
      deps.metrics.consumerPending.set({ consumer: durable }, info.num_pending);
      deps.metrics.consumerAckPending.set({ consumer: durable }, info.num_ack_pending);
    }
  };
  const runner = createCoalescingRunner(pass, {
    logger: deps.logger,
    periodMs,
    failure: 'consumer lag sample failed; will retry',
  });
  if (durables.length > 0) runner.start({ immediately: true });
  return { sample: () => runner.run(), stop: () => runner.stop() };
}
