import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { connectBus, publishEvent, startTracing, stopTracing, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../harness/services.js';

describe('trace context crosses HTTP → gRPC → NATS', () => {
  const exporter = new InMemorySpanExporter();
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  beforeAll(async () => {
    startTracing('e2e', undefined, [new SimpleSpanProcessor({ exporter })]);
    stack = await startServices(['ledger', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'test');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    await stopTracing();
  });

  it('an HTTP request’s trace continues into the gateway, its gRPC call and the ledger', async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const res = await fetch(`${stack.gatewayUrl}/api/verify/XYZ-TX-00000001/0123456789abcdef`, {
      headers: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01` },
    });
    expect(res.status).toBe(404);
    const spans = await eventually(async () => {
      const s = exporter.getFinishedSpans().filter((x) => x.spanContext().traceId === traceId);
      return s.length >= 3 ? s : undefined;
    });
    const names = spans.map((s) => s.name);
    expect(names).toContain('GET /api/verify/:label/:hash');
    expect(names.filter((n) => n === 'signet.ledger.v1.LedgerService/VerifyCertificate')).toHaveLength(2); // client + server
  });

  it('an event carries the publisher’s trace to the consumer', async () => {
    const tracer = trace.getTracer('e2e');
    const span = tracer.startSpan('publisher');
    const traceId = span.spanContext().traceId;
    const eventId = randomUUID();
    await context.with(trace.setSpan(context.active(), span), () =>
      publishEvent(bus, events.transactionVerified, {
        eventId,
        payload: eventsV1.TransactionVerified.encode({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: 9,
          reference: `TRC-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
          documentSha256: 'd'.repeat(64),
          issuerName: 'Acme',
          attestationType: 'signature',
          ownerId: 'u',
          signers: [],
        }).finish(),
      }),
    );
    span.end();
    const consumed = await eventually(async () =>
      exporter
        .getFinishedSpans()
        .find((s) => s.name === 'consume signet.transaction.verified' && s.spanContext().traceId === traceId),
    );
    expect(consumed).toBeDefined();
  });
});
