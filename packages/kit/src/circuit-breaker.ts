import { status } from '@grpc/grpc-js';
import { RpcError } from './grpc-error.js';

/** closed: calls pass; open: calls fail at once; half_open: one trial call decides. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** Gauge value of each state (signet_<service>_upstream_circuit_state). */
export const CIRCUIT_STATE_VALUE: Readonly<Record<CircuitState, number>> = { closed: 0, half_open: 1, open: 2 };

export type CircuitBreakerOptions = {
  /** The upstream's name, in the refusal's message. */
  name: string;
  /** Consecutive transport failures that open the circuit. */
  failureThreshold?: number;
  /** How long the circuit stays open before one trial call is let through. */
  openMs?: number;
  now?: () => number;
  onStateChange?: (state: CircuitState) => void;
  /** Called for each call refused while the circuit is open. */
  onShortCircuit?: () => void;
};

/**
 * A per-upstream circuit breaker for gRPC calls. The caller asks `admit()` before a call (it throws
 * RpcError UNAVAILABLE, reason CIRCUIT_OPEN, with Retry-After, while open) and reports the outcome
 * with `record(failed)`. Only transport failures count (the upstream did not answer: UNAVAILABLE or
 * DEADLINE_EXCEEDED without a reason of the service's); any answer of the service closes the circuit.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private trialInFlight = false;
  private current: CircuitState = 'closed';
  private readonly threshold: number;
  private readonly openMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: CircuitBreakerOptions) {
    this.threshold = opts.failureThreshold ?? 5;
    this.openMs = opts.openMs ?? 5000;
    this.now = opts.now ?? Date.now;
  }

  get state(): CircuitState {
    return this.current;
  }

  /** Throws while the circuit is open (or a half-open trial is already in flight); returns otherwise. */
  admit(): void {
    if (this.current === 'open' && this.now() - this.openedAt >= this.openMs) this.set('half_open');
    if (this.current === 'closed') return;
    if (this.current === 'half_open' && !this.trialInFlight) {
      this.trialInFlight = true;
      return;
    }
    this.opts.onShortCircuit?.();
    const waitMs = Math.max(0, this.openMs - (this.now() - this.openedAt));
    throw new RpcError(
      status.UNAVAILABLE,
      `${this.opts.name} is unavailable; retry shortly`,
      'CIRCUIT_OPEN',
      Math.max(1, Math.ceil(waitMs / 1000)),
    );
  }

  /** The outcome of an admitted call: `failed` when the upstream did not answer. */
  record(failed: boolean): void {
    if (this.current === 'half_open') this.trialInFlight = false;
    if (!failed) {
      this.failures = 0;
      if (this.current !== 'closed') this.set('closed');
      return;
    }
    this.failures++;
    if (this.current === 'half_open' || (this.current === 'closed' && this.failures >= this.threshold)) this.trip();
  }

  /** Opens the circuit now (e.g. the channel reported a failed connectivity state). */
  trip(): void {
    this.openedAt = this.now();
    this.trialInFlight = false;
    if (this.current !== 'open') this.set('open');
  }

  private set(state: CircuitState) {
    this.current = state;
    this.opts.onStateChange?.(state);
  }
}

/**
 * Whether a failed call means the upstream did not answer: UNAVAILABLE or DEADLINE_EXCEEDED raised by
 * the channel (no reason of the service's in the trailers). A service's own UNAVAILABLE (contention,
 * or its own upstream down) is an answer: the upstream is there.
 */
export function isTransportFailure(code: status, hasServiceReason: boolean): boolean {
  return (code === status.UNAVAILABLE || code === status.DEADLINE_EXCEEDED) && !hasServiceReason;
}
