import { CIRCUIT_STATE_VALUE, CircuitBreaker, type Metrics } from '@signet/kit';

/** The services the gateway calls, each behind its own circuit breaker. */
export const UPSTREAMS = ['identity', 'billing', 'transaction', 'ceremony', 'ledger'] as const;
export type Upstream = (typeof UPSTREAMS)[number];

/** Consecutive transport failures that open an upstream's circuit, and how long it stays open. */
export const CIRCUIT_FAILURE_THRESHOLD = 5;
export const CIRCUIT_OPEN_MS = 5000;

/**
 * One breaker per upstream: while one is open, only the routes that call that service answer 503
 * with Retry-After (the kit's client refuses at once, RpcError UNAVAILABLE / CIRCUIT_OPEN, mapped by
 * http/errors.ts); the gateway's readiness does not depend on them.
 */
export function upstreamBreakers(
  metrics: Metrics,
  opts: { failureThreshold?: number; openMs?: number } = {},
): Record<Upstream, CircuitBreaker> {
  const state = metrics.gauge(
    'signet_gateway_upstream_circuit_state',
    'Circuit breaker state of each upstream service: 0 closed, 1 half-open, 2 open',
    ['upstream'],
  );
  const shorted = metrics.counter(
    'signet_gateway_upstream_short_circuited_total',
    'Calls to an upstream refused at once because its circuit was open',
    ['upstream'],
    { upstream: UPSTREAMS }, // from 0: SignetUpstreamCircuitOpen's increase() sees the first refusal
  );
  const entries = UPSTREAMS.map((upstream) => {
    state.set({ upstream }, CIRCUIT_STATE_VALUE.closed);
    const breaker = new CircuitBreaker({
      name: upstream,
      failureThreshold: opts.failureThreshold ?? CIRCUIT_FAILURE_THRESHOLD,
      openMs: opts.openMs ?? CIRCUIT_OPEN_MS,
      onStateChange: (s) => state.set({ upstream }, CIRCUIT_STATE_VALUE[s]),
      onShortCircuit: () => shorted.inc({ upstream }),
    });
    return [upstream, breaker] as const;
  });
  return Object.fromEntries(entries) as Record<Upstream, CircuitBreaker>;
}
