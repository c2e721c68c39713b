import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { connectBus, publishEvent, startTracing, stopTracing, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import type { Account } from '../harness/accounts.js';
import { send } from '../support/http.js';

// The services (and so mongoose and its driver) load after startTracing, as main.ts has them: the
// MongoDB instrumentation patches the driver when it loads.
type Harness = typeof import('../harness/services.js');
let eventually: Harness['eventually'];
let infra: Harness['infra'];

const suffix = randomBytes(3).toString('hex');

describe('trace context crosses HTTP → gRPC → NATS, and covers MongoDB and S3', () => {
  const exporter = new InMemorySpanExporter();
  let stack: Awaited<ReturnType<Harness['startServices']>>;
  let bus: Bus;
  let acct: Account;
  beforeAll(async () => {
    startTracing('e2e', undefined, [new SimpleSpanProcessor({ exporter })]);
    const harness = await import('../harness/services.js');
    ({ eventually, infra } = harness);
    stack = await harness.startServices(['identity', 'billing', 'transaction', 'ledger', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `e2e-docs-${suffix}`, BUCKET_REFERENCES: `e2e-refs-${suffix}`, REFERENCE_FACE_CHECK: 'off' },
    });
    const { createAccount } = await import('../harness/accounts.js');
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL);
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

  it('a transaction creation shows its MongoDB and S3 calls under the request span, without values', async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const secretEmail = `trace-${suffix}@example.com`;
    const res = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      headers: { traceparent: `00-${traceId}-${'2'.repeat(16)}-01` },
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: secretEmail },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'contract.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const s3Port = new URL(infra().S3_ENDPOINT).port;
    const isMongo = (s: ReadableSpan) => s.attributes['db.system'] === 'mongodb' || s.attributes['db.system.name'] === 'mongodb';
    const isS3 = (s: ReadableSpan) =>
      s.kind === SpanKind.CLIENT && String(s.attributes['server.port'] ?? s.attributes['net.peer.port']) === s3Port;
    const inTrace = () => exporter.getFinishedSpans().filter((x) => x.spanContext().traceId === traceId);
    await eventually(async () => {
      const all = inTrace();
      return all.some((x) => x.name === 'POST /api/transactions') && all.some(isMongo) && all.filter(isS3).length >= 2;
    });
    // The events of the creation are consumed after the answer, in the same trace: wait until the
    // trace is complete (no new span for a second), so every span's parents have ended too.
    let seen = -1;
    await eventually(
      async () => {
        const n = inTrace().length;
        const still = n === seen;
        seen = n;
        return still;
      },
      15_000,
      1_000,
    );
    const spans = inTrace();
    const byId = new Map(spans.map((x) => [x.spanContext().spanId, x]));
    const request = spans.find((x) => x.name === 'POST /api/transactions')!;
    /** The chain of parents of a span within this trace, up to its root. */
    const ancestors = (x: ReadableSpan) => {
      const out: ReadableSpan[] = [];
      for (let p = byId.get(x.parentSpanContext?.spanId ?? ''); p; p = byId.get(p.parentSpanContext?.spanId ?? '')) out.push(p);
      return out;
    };
    const mongo = spans.filter(isMongo);
    const s3 = spans.filter(isS3);
    // The document and the reference photo go to MinIO; the transaction is written to MongoDB.
    expect(s3.length).toBeGreaterThanOrEqual(2);
    expect(mongo.some((x) => /insert|update|findAndModify/.test(x.name))).toBe(true);
    for (const x of [...mongo, ...s3]) expect(ancestors(x), x.name).toContain(request);
    // No value of the request on a span: statements are masked, URLs carry no query secrets.
    const statements = mongo.map((x) => String(x.attributes['db.statement'] ?? x.attributes['db.query.text'] ?? ''));
    expect(statements.some((t) => t.includes('?'))).toBe(true);
    const attributes = JSON.stringify(spans.map((x) => x.attributes));
    expect(attributes).not.toContain(secretEmail);
    expect(attributes).not.toContain(acct.apiKey);
  });

  it('an event carries the publisher’s trace to the consumer', async () => {
    const tracer = trace.getTracer('e2e');
    const span = tracer.startSpan('publisher');
    const traceId = span.spanContext().traceId;
    const eventId = randomUUID();
    await context.with(trace.setSpan(context.active(), span), () =>
      publishEvent(bus, events.transactionVerified, {
        eventId,
        // fromPartial: fields the test does not care about keep their defaults.
        payload: eventsV1.TransactionVerified.encode(
          eventsV1.TransactionVerified.fromPartial({
            eventId,
            occurredAt: new Date().toISOString(),
            transactionId: 9,
            reference: `TRC-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
            documentSha256: 'd'.repeat(64),
            issuerName: 'Acme',
            attestationType: 'signature',
            ownerId: 'u',
            signers: [],
          }),
        ).finish(),
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
