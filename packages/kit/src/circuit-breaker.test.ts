import { createServer } from 'node:net';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { transactionV1 } from '@signet/proto';
import { CircuitBreaker, isTransportFailure, type CircuitState } from './circuit-breaker.js';
import { createClient } from './grpc-client.js';
import { RpcError } from './grpc-error.js';
import { Metrics } from './metrics.js';

function breaker(threshold = 3, openMs = 5000) {
  let t = 1_000_000;
  const states: CircuitState[] = [];
  let shorted = 0;
  const b = new CircuitBreaker({
    name: 'ledger',
    failureThreshold: threshold,
    openMs,
    now: () => t,
    onStateChange: (s) => states.push(s),
    onShortCircuit: () => shorted++,
  });
  return { b, states, shorted: () => shorted, advance: (ms: number) => (t += ms) };
}

const refusal = (b: CircuitBreaker) => {
  try {
    b.admit();
  } catch (err) {
    return err as RpcError;
  }
  return undefined;
};

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures and refuses with UNAVAILABLE, CIRCUIT_OPEN and a Retry-After', () => {
    const { b, states, shorted, advance } = breaker(3, 5000);
    for (let i = 0; i < 2; i++) {
      b.admit();
      b.record(true);
    }
    expect(b.state).toBe('closed');
    b.admit();
    b.record(true);
    expect(b.state).toBe('open');
    expect(states).toEqual(['open']);
    advance(1500);
    const err = refusal(b);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: status.UNAVAILABLE, reason: 'CIRCUIT_OPEN', retryAfterSeconds: 4 });
    expect(err?.details).toContain('ledger');
    expect(shorted()).toBe(1);
  });

  it('a success between failures resets the count', () => {
    const { b } = breaker(3);
    for (const failed of [true, true, false, true, true]) {
      b.admit();
      b.record(failed);
    }
    expect(b.state).toBe('closed');
  });

  it('half-opens after the pause: one trial passes, others are refused; success closes', () => {
    const { b, states, advance } = breaker(1, 5000);
    b.admit();
    b.record(true);
    advance(5000);
    expect(refusal(b)).toBeUndefined(); // the trial
    expect(b.state).toBe('half_open');
    expect(refusal(b)?.reason).toBe('CIRCUIT_OPEN'); // a second call during the trial
    b.record(false);
    expect(b.state).toBe('closed');
    expect(refusal(b)).toBeUndefined();
    expect(states).toEqual(['open', 'half_open', 'closed']);
  });

  it('a failed trial opens the circuit again for another pause', () => {
    const { b, advance } = breaker(1, 5000);
    b.admit();
    b.record(true);
    advance(5000);
    b.admit();
    b.record(true);
    expect(b.state).toBe('open');
    advance(4999);
    expect(refusal(b)?.reason).toBe('CIRCUIT_OPEN');
    advance(1);
    expect(refusal(b)).toBeUndefined();
  });

  it('trip() opens at once (a failed connectivity state)', () => {
    const { b } = breaker(5);
    b.trip();
    expect(b.state).toBe('open');
    expect(refusal(b)?.code).toBe(status.UNAVAILABLE);
  });
});

describe('isTransportFailure', () => {
  it('counts UNAVAILABLE and DEADLINE_EXCEEDED raised by the channel, not answers of the service', () => {
    expect(isTransportFailure(status.UNAVAILABLE, false)).toBe(true);
    expect(isTransportFailure(status.DEADLINE_EXCEEDED, false)).toBe(true);
    expect(isTransportFailure(status.UNAVAILABLE, true)).toBe(false); // e.g. CONTENTION
    expect(isTransportFailure(status.NOT_FOUND, false)).toBe(false);
    expect(isTransportFailure(status.INTERNAL, false)).toBe(false);
  });
});

describe('createClient with a breaker', () => {
  it('counts calls to a service that does not answer and then refuses at once, without a call', async () => {
    // A loopback port nobody listens on: connections are refused.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const metrics = new Metrics('kit-test');
    const b = new CircuitBreaker({ name: 'transaction', failureThreshold: 2, openMs: 60_000 });
    const client = createClient(transactionV1.TransactionServiceClient, `127.0.0.1:${port}`, { metrics, breaker: b });
    try {
      for (let i = 0; i < 2; i++)
        await expect(client.getTransaction({ ownerId: 'o', id: 1 })).rejects.toMatchObject({ code: status.UNAVAILABLE });
      expect(b.state).toBe('open');
      const calls = async () =>
        (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'signet_grpc_client_handling_seconds');
      const before = JSON.stringify(await calls());
      await expect(client.getTransaction({ ownerId: 'o', id: 1 })).rejects.toMatchObject({
        code: status.UNAVAILABLE,
        reason: 'CIRCUIT_OPEN',
        retryAfterSeconds: 60,
      });
      expect(JSON.stringify(await calls())).toBe(before); // refused before any call was made
    } finally {
      client.close();
    }
  });
});
