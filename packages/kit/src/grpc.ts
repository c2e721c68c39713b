import {
  Server,
  ServerCredentials,
  credentials,
  makeGenericClientConstructor,
  status,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { toServiceError } from './grpc-error.js';
import { nulRefusal } from './nul-guard.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { extractContext } from './tracing.js';
import { drainTimeoutMs, isDraining } from './lifecycle.js';
import { grpcServerOptions } from './process-settings.js';
import { receiveWindow } from './grpc-window.js';

// Client calls (unary and streaming) and the error mapping live beside this file; exported from here as before.
export * from './grpc-error.js';
export * from './grpc-client.js';

const tracer = trace.getTracer('signet-grpc');

export type UnaryHandler<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

type RawHandler = (...args: any[]) => void;
type HandlerMap = Record<string, UnaryHandler<any, any> | RawHandler>;

export type GrpcServerDeps = { metrics: Metrics; logger: Logger };

/**
 * Wraps unary handlers: continues the caller's trace from metadata, times the call, refuses a
 * request holding U+0000 in any text (INVALID_ARGUMENT), maps thrown domain errors to statuses
 * once. Streaming handlers (marked with `raw`) time and map errors
 * themselves; they get the trace (tracedStream).
 */
export function addService(
  server: Server,
  definition: ServiceDefinition,
  handlers: HandlerMap,
  deps: GrpcServerDeps,
  raw: string[] = [],
): void {
  const impl: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = handlers[name];
    if (!handler) throw new Error(`no handler for ${method.path}`);
    const label = method.path.split('/').slice(1).join('/');
    if (raw.includes(name)) {
      impl[name] = tracedStream(label, handler as RawHandler, method.responseStream);
      continue;
    }
    const fn = handler as UnaryHandler<any, any>;
    impl[name] = (call: ServerUnaryCall<any, any>, callback: sendUnaryData<any>) => {
      const carrier: Record<string, string> = {};
      for (const [k, v] of Object.entries(call.metadata.getMap())) if (typeof v === 'string') carrier[k] = v;
      const parent = extractContext(carrier);
      const span = tracer.startSpan(
        label,
        { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': label } },
        parent,
      );
      const end = deps.metrics.grpcServerDuration.startTimer({ method: label });
      // A NUL in any text of the request is refused before the handler (nul-guard.ts): it must never reach a store.
      const refused = nulRefusal(call.request);
      context.with(trace.setSpan(parent, span), () => {
        (refused ? Promise.reject(refused) : fn(call.request, call)).then(
          (res) => {
            end({ code: 'OK' });
            span.end();
            callback(null, res);
          },
          (err: unknown) => {
            const se = toServiceError(err);
            end({ code: status[se.code ?? status.INTERNAL] });
            if (se.code === status.INTERNAL) {
              deps.logger.error({ err, method: label }, 'rpc failed');
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
            span.setAttribute('rpc.grpc.status_code', se.code ?? status.INTERNAL);
            span.end();
            callback(se as ServiceError, null);
          },
        );
      });
    };
  }
  server.addService(definition, impl);
}

/**
 * A streaming handler inside a server span continuing the caller's trace, so the work it does (its
 * database and S3 calls) lands in the caller's trace: the handler runs in the span's context, and so
 * do the call's event listeners (`context.bind`); the span ends with the callback (client stream)
 * or when the call finishes, fails or is cancelled (server stream).
 */
function tracedStream(label: string, handler: RawHandler, responseStream: boolean): RawHandler {
  return (call: ServerUnaryCall<any, any>, callback?: sendUnaryData<any>) => {
    const carrier: Record<string, string> = {};
    for (const [k, v] of Object.entries(call.metadata.getMap())) if (typeof v === 'string') carrier[k] = v;
    const parent = extractContext(carrier);
    const span = tracer.startSpan(
      label,
      { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': label } },
      parent,
    );
    let ended = false;
    const end = (code: status) => {
      if (ended) return;
      ended = true;
      span.setAttribute('rpc.grpc.status_code', code);
      if (code === status.INTERNAL || code === status.UNKNOWN) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    const ctx = trace.setSpan(parent, span);
    context.bind(ctx, call);
    call.once('cancelled', () => end(status.CANCELLED));
    if (responseStream) {
      call.once('finish', () => end(status.OK));
      call.once('error', (err: { code?: status }) => end(err?.code ?? status.INTERNAL));
      context.with(ctx, () => handler(call));
      return;
    }
    const done: sendUnaryData<any> = (err, value, ...rest) => {
      end(err ? ((err as ServiceError).code ?? status.INTERNAL) : status.OK);
      callback!(err, value, ...rest);
    };
    context.with(ctx, () => handler(call, done));
  };
}

/**
 * A gRPC server with the standard health service. Health '' follows readiness (refreshed from the
 * checks every few seconds); 'liveness' is SERVING while the process runs.
 */
export function createGrpcServer(readinessCheck: () => Promise<boolean>) {
  const server = new Server({ 'grpc.max_receive_message_length': 8 * 1024 * 1024, ...grpcServerOptions() });
  const windows = receiveWindow(server);
  const health = new HealthImplementation({ '': 'NOT_SERVING', liveness: 'SERVING' });
  health.addToServer(server);
  let timer: NodeJS.Timeout | undefined;
  const refresh = async () => {
    const ok = await readinessCheck().catch(() => false);
    health.setStatus('', ok ? 'SERVING' : 'NOT_SERVING');
  };
  return {
    server,
    health,
    async listen(address: string): Promise<number> {
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync(address, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
      );
      windows.attachSessions();
      await refresh();
      timer = setInterval(() => void refresh(), 5000);
      timer.unref();
      return port;
    },
    async shutdown(graceMs = isDraining() ? drainTimeoutMs() : 10_000): Promise<void> {
      if (timer) clearInterval(timer);
      health.setStatus('', 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

const HealthClient = makeGenericClientConstructor(healthService as unknown as ServiceDefinition, 'Health');

/** A readiness check that asks another service's standard gRPC health service (overall status ''). */
export function grpcHealthCheck(address: string, timeoutMs = 1500): { check(): Promise<void>; close(): void } {
  const client = new HealthClient(address, credentials.createInsecure());
  return {
    check: () =>
      new Promise<void>((resolve, reject) => {
        (client as unknown as { check: Function }).check(
          { service: '' },
          { deadline: new Date(Date.now() + timeoutMs) },
          (err: ServiceError | null, res: { status: string | number }) => {
            if (err) return reject(new Error(`unreachable (${status[err.code]})`));
            if (res.status === 'SERVING' || res.status === 1) return resolve();
            reject(new Error('not serving'));
          },
        );
      }),
    close: () => client.close(),
  };
}
