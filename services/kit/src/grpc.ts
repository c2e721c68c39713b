import {
  Client,
  Metadata,
  Server,
  ServerCredentials,
  credentials,
  makeGenericClientConstructor,
  status,
  type CallOptions,
  type ClientUnaryCall,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { DomainError, type ErrorKind } from './errors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { extractContext, injectContext } from './tracing.js';

const tracer = trace.getTracer('signet-grpc');

const REASON_KEY = 'signet-reason';
const RETRY_KEY = 'signet-retry-after';

const kindToStatus: Record<ErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  permission_denied: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  conflict: status.FAILED_PRECONDITION,
  already_exists: status.ALREADY_EXISTS,
  quota_exhausted: status.FAILED_PRECONDITION,
  rate_limited: status.RESOURCE_EXHAUSTED,
  payload_too_large: status.OUT_OF_RANGE,
  unavailable: status.UNAVAILABLE,
  deadline_exceeded: status.DEADLINE_EXCEEDED,
  internal: status.INTERNAL,
};

/** The one mapping from a domain error to a gRPC status (DESIGN §2). Unknown errors are INTERNAL with a generic message. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const metadata = new Metadata();
  if (err instanceof DomainError) {
    metadata.set(REASON_KEY, err.reason);
    if (err.retryAfterSeconds !== undefined) metadata.set(RETRY_KEY, String(err.retryAfterSeconds));
    return { code: kindToStatus[err.kind], details: err.message, metadata };
  }
  if (err instanceof RpcError) {
    // An upstream failure passes through with its code and reason, not flattened to INTERNAL.
    metadata.set(REASON_KEY, err.reason);
    if (err.retryAfterSeconds !== undefined) metadata.set(RETRY_KEY, String(err.retryAfterSeconds));
    const passthrough = err.code === status.DEADLINE_EXCEEDED || err.code === status.UNAVAILABLE ? status.UNAVAILABLE : err.code;
    return { code: passthrough, details: err.details, metadata };
  }
  metadata.set(REASON_KEY, 'INTERNAL');
  return { code: status.INTERNAL, details: 'internal error', metadata };
}

export type UnaryHandler<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

type RawHandler = (...args: any[]) => void;
type HandlerMap = Record<string, UnaryHandler<any, any> | RawHandler>;

export type GrpcServerDeps = { metrics: Metrics; logger: Logger };

/**
 * Wraps unary handlers: continues the caller's trace from metadata, times the call, maps thrown
 * domain errors to statuses once. Streaming handlers (marked with `raw`) are registered as given.
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
    if (raw.includes(name)) {
      impl[name] = handler as RawHandler;
      continue;
    }
    const fn = handler as UnaryHandler<any, any>;
    const label = method.path.split('/').slice(1).join('/');
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
      context.with(trace.setSpan(parent, span), () => {
        fn(call.request, call).then(
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
 * A gRPC server with the standard health service. Health '' follows readiness (refreshed from the
 * checks every few seconds); 'liveness' is SERVING while the process runs.
 */
export function createGrpcServer(readinessCheck: () => Promise<boolean>) {
  const server = new Server({ 'grpc.max_receive_message_length': 8 * 1024 * 1024 });
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
      await refresh();
      timer = setInterval(() => void refresh(), 5000);
      timer.unref();
      return port;
    },
    async shutdown(graceMs = 10_000): Promise<void> {
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

/** A failed call to another service, with its status code and machine-readable reason. */
export class RpcError extends Error {
  constructor(
    readonly code: status,
    readonly details: string,
    readonly reason: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(details);
    this.name = 'RpcError';
  }

  static from(err: ServiceError): RpcError {
    const reason = String(err.metadata?.get(REASON_KEY)[0] ?? status[err.code] ?? 'UNKNOWN');
    const retry = err.metadata?.get(RETRY_KEY)[0];
    return new RpcError(err.code, err.details || err.message, reason, retry ? Number(retry) : undefined);
  }
}

export type CallOpts = { deadlineMs?: number; metadata?: Record<string, string> };

type UnaryOf<F> = F extends (
  request: infer Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: infer Res) => void,
) => ClientUnaryCall
  ? (request: Req, opts?: CallOpts) => Promise<Res>
  : never;

export type PromiseClient<C> = {
  [K in keyof C as UnaryOf<C[K]> extends never ? never : K]: UnaryOf<C[K]>;
};

/** A promise client plus its lifecycle. */
export type ServiceClient<C> = PromiseClient<C> & { close(): void; raw: C };

type ClientCtor<C> = (new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => C) & {
  service: ServiceDefinition;
};

/**
 * A typed promise client: every unary method gets a deadline (default 5 s), carries the trace
 * context in metadata, is timed, and rejects with RpcError.
 */
export function createClient<C extends Client>(
  Ctor: ClientCtor<C>,
  address: string,
  deps: { metrics: Metrics; defaultDeadlineMs?: number },
): ServiceClient<C> {
  const raw = new Ctor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
  });
  const out: Record<string, unknown> = { raw, close: () => raw.close() };
  for (const [name, method] of Object.entries(Ctor.service)) {
    if (method.requestStream || method.responseStream) continue;
    const label = method.path.split('/').slice(1).join('/');
    out[name] = (request: unknown, opts: CallOpts = {}) => {
      const span = tracer.startSpan(label, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': label } });
      const md = new Metadata();
      for (const [k, v] of Object.entries({ ...opts.metadata, ...injectContext(trace.setSpan(context.active(), span)) }))
        md.set(k, v);
      const deadline = new Date(Date.now() + (opts.deadlineMs ?? deps.defaultDeadlineMs ?? 5000));
      const end = deps.metrics.grpcClientDuration.startTimer({ method: label });
      return new Promise((resolve, reject) => {
        const fn = (raw as unknown as Record<string, Function>)[name]!;
        fn.call(raw, request, md, { deadline }, (err: ServiceError | null, res: unknown) => {
          span.setAttribute('rpc.grpc.status_code', err ? err.code : 0);
          if (err && err.code !== status.NOT_FOUND) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          end({ code: status[err ? err.code : status.OK] });
          if (err) reject(RpcError.from(err));
          else resolve(res);
        });
      });
    };
  }
  return out as ServiceClient<C>;
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
