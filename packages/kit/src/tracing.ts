import { NodeSDK } from '@opentelemetry/sdk-node';
import { envDetector } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';

let sdk: NodeSDK | undefined;

const dropSpans: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * Client spans of the libraries under the services' own spans (HTTP server, gRPC and NATS are the
 * kit's): MongoDB commands (mongoose's driver), Redis commands and outgoing HTTP (S3 through minio,
 * see createS3). Only inside a trace (a background job's queries make no root spans), and without
 * values: MongoDB statements have their values masked, Redis spans carry the command name alone,
 * outgoing HTTP no headers or bodies.
 */
function instrumentations() {
  return [
    new MongoDBInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    // Incoming requests have the kit's own server span (http.ts).
    new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, requireParentforOutgoingSpans: true }),
  ];
}

/**
 * Starts the OpenTelemetry SDK: context propagation (W3C trace context) always, span export only
 * when an OTLP endpoint is configured. Extra processors are for tests (an in-memory exporter).
 * Call it before the service's modules load (main.ts imports app.js after it): the MongoDB and
 * Redis instrumentations patch their library when it is first loaded.
 */
export function startTracing(service: string, otlpEndpoint?: string, extra: SpanProcessor[] = []): void {
  if (sdk) return;
  const spanProcessors: SpanProcessor[] = [...extra];
  if (otlpEndpoint) {
    spanProcessors.push(
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, '')}/v1/traces` }) }),
    );
  }
  // With no exporter, spans are still created (trace ids in logs, context passed on) and dropped, and
  // the libraries' client spans are not made at all: building a MongoDB command's masked statement for
  // a span nobody reads was 2-4 % of the transaction and ledger services' CPU under load.
  const exporting = spanProcessors.length > 0;
  if (!exporting) spanProcessors.push(dropSpans);
  sdk = new NodeSDK({
    serviceName: service,
    spanProcessors,
    instrumentations: exporting ? instrumentations() : [],
    // OTEL_RESOURCE_ATTRIBUTES (deployment.environment, k8s.pod.name, …) on every span; the service name wins.
    resourceDetectors: [envDetector],
  });
  sdk.start();
}

export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}

type Carrier = Record<string, string>;
const setter: TextMapSetter<Carrier> = { set: (c, k, v) => void (c[k] = v) };
const getter: TextMapGetter<Carrier> = { keys: (c) => Object.keys(c), get: (c, k) => c[k] };

/** The active trace context as plain headers (for gRPC metadata and NATS headers). */
export function injectContext(ctx: Context = context.active()): Carrier {
  const carrier: Carrier = {};
  propagation.inject(ctx, carrier, setter);
  return carrier;
}

export function extractContext(carrier: Carrier): Context {
  return propagation.extract(context.active(), carrier, getter);
}
