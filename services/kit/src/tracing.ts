import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';

let sdk: NodeSDK | undefined;

const dropSpans: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * Starts the OpenTelemetry SDK: context propagation (W3C trace context) always, span export only
 * when an OTLP endpoint is configured. Extra processors are for tests (an in-memory exporter).
 */
export function startTracing(service: string, otlpEndpoint?: string, extra: SpanProcessor[] = []): void {
  if (sdk) return;
  const spanProcessors: SpanProcessor[] = [...extra];
  if (otlpEndpoint) {
    spanProcessors.push(
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, '')}/v1/traces` }) }),
    );
  }
  // With no exporter, spans are still created (trace ids in logs, context passed on) and dropped.
  if (spanProcessors.length === 0) spanProcessors.push(dropSpans);
  sdk = new NodeSDK({
    serviceName: service,
    spanProcessors,
    instrumentations: [],
    resourceDetectors: [],
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
