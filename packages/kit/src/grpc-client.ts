import {
  Client,
  Metadata,
  credentials,
  status,
  type CallOptions,
  type ClientReadableStream,
  type ClientWritableStream,
  type ClientUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type StatusObject,
} from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isTransportFailure, type CircuitBreaker } from './circuit-breaker.js';
import { REASON_KEY, RpcError } from './grpc-error.js';
import type { Metrics } from './metrics.js';
import { injectContext } from './tracing.js';

const tracer = trace.getTracer('signet-grpc');

export type CallOpts = { deadlineMs?: number; metadata?: Record<string, string> };
/** Streams are long calls: their deadline is always chosen by the caller. */
export type StreamCallOpts = { deadlineMs: number; metadata?: Record<string, string> };

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

/** A method of a generated service definition, by whether its requests and its responses stream. */
type MethodDefinitionOf<Req, Res, RequestStream extends boolean, ResponseStream extends boolean> = {
  path: string;
  requestStream: RequestStream;
  responseStream: ResponseStream;
  requestSerialize: (value: Req) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
};
/** A client-streaming method, e.g. `TransactionServiceService.createTransaction`. */
export type ClientStreamingMethod<Req, Res> = MethodDefinitionOf<Req, Res, true, false>;
/** A server-streaming method, e.g. `TransactionServiceService.exportTransactions`. */
export type ServerStreamingMethod<Req, Res> = MethodDefinitionOf<Req, Res, false, true>;

/** An open client-streaming call: write with backpressure, end, then the one response. */
export type ClientStream<W, Res> = {
  /** False when the call's buffer is full: wait for `onceDrain` before writing more. */
  write(message: W): boolean;
  onceDrain(listener: () => void): void;
  end(): void;
  /** Cancels the call (the service sees CANCELLED and removes what it stored); `result` rejects with CANCELLED. */
  cancel(): void;
  /** The response; rejects with RpcError, as a unary call does. */
  result: Promise<Res>;
};

/**
 * An open server-streaming call, read with `for await`. It ends only on an OK status and throws
 * RpcError on any other (after the messages received before it); leaving the loop early cancels it.
 */
export type ServerStream<Res> = AsyncIterable<Res> & { cancel(): void };

/** A promise client plus its lifecycle and its streaming calls. */
export type ServiceClient<C> = PromiseClient<C> & {
  close(): void;
  raw: C;
  /**
   * Opens a client-streaming call with the deadline, trace context and metadata every call carries.
   * `serialize` replaces the generated encoder (it must write the same wire bytes) when a caller
   * writes messages of its own shape.
   */
  clientStream<Req, Res, W = Req>(
    method: ClientStreamingMethod<Req, Res>,
    opts: StreamCallOpts & { serialize?: (message: W) => Buffer },
  ): ClientStream<W, Res>;
  /** Opens a server-streaming call with the deadline, trace context and metadata every call carries. */
  serverStream<Req, Res>(method: ServerStreamingMethod<Req, Res>, request: Req, opts: StreamCallOpts): ServerStream<Res>;
};

type ClientCtor<C> = (new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => C) & {
  service: ServiceDefinition;
};

type ClientDeps = {
  metrics: Metrics;
  defaultDeadlineMs?: number;
  /** Guards the unary calls: refused at once while open, fed by each call's outcome. */
  breaker?: CircuitBreaker;
};

/** Whether a failed call means the service did not answer (no reason of its own in the trailers). */
const transportFailure = (err: ServiceError) => isTransportFailure(err.code, (err.metadata?.get(REASON_KEY).length ?? 0) > 0);

/**
 * What every outbound call carries, set in this one place: a client span, the trace context and
 * the caller's metadata, the deadline, and the duration histogram. `done` records the final status.
 */
function startCall(label: string, deps: ClientDeps, opts: CallOpts) {
  const span = tracer.startSpan(label, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': label } });
  const metadata = new Metadata();
  for (const [k, v] of Object.entries({ ...opts.metadata, ...injectContext(trace.setSpan(context.active(), span)) }))
    metadata.set(k, v);
  const deadline = new Date(Date.now() + (opts.deadlineMs ?? deps.defaultDeadlineMs ?? 5000));
  const end = deps.metrics.grpcClientDuration.startTimer({ method: label });
  let finished = false;
  return {
    metadata,
    deadline,
    done(code: status) {
      if (finished) return;
      finished = true;
      span.setAttribute('rpc.grpc.status_code', code);
      if (code !== status.OK && code !== status.NOT_FOUND) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      end({ code: status[code] });
    },
  };
}

const labelOf = (path: string) => path.split('/').slice(1).join('/');

function openClientStream<W, Res>(
  raw: Client,
  method: ClientStreamingMethod<unknown, Res>,
  serialize: (message: W) => Buffer,
  deps: ClientDeps,
  opts: StreamCallOpts,
): ClientStream<W, Res> {
  const c = startCall(labelOf(method.path), deps, opts);
  let call!: ClientWritableStream<W>;
  const result = new Promise<Res>((resolve, reject) => {
    call = raw.makeClientStreamRequest<W, Res>(
      method.path,
      serialize,
      method.responseDeserialize,
      c.metadata,
      { deadline: c.deadline },
      (err: ServiceError | null, res?: Res) => {
        c.done(err ? err.code : status.OK);
        if (err) reject(RpcError.from(err));
        else resolve(res as Res);
      },
    );
  });
  // A caller that cancels need not await the outcome.
  result.catch(() => undefined);
  return {
    write: (message) => call.write(message),
    onceDrain: (listener) => void call.once('drain', listener),
    end: () => call.end(),
    cancel: () => call.cancel(),
    result,
  };
}

/** Messages buffered ahead of the reader before the call is paused (backpressure to the service). */
const READ_AHEAD = 16;

function openServerStream<Req, Res>(
  raw: Client,
  method: ServerStreamingMethod<Req, Res>,
  request: Req,
  deps: ClientDeps,
  opts: StreamCallOpts,
): ServerStream<Res> {
  const c = startCall(labelOf(method.path), deps, opts);
  const call: ClientReadableStream<Res> = raw.makeServerStreamRequest(
    method.path,
    method.requestSerialize,
    method.responseDeserialize,
    request,
    c.metadata,
    { deadline: c.deadline },
  );
  const queue: Res[] = [];
  let ended = false;
  let failure: RpcError | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  call.on('data', (message: Res) => {
    queue.push(message);
    if (queue.length >= READ_AHEAD) call.pause();
    notify();
  });
  // The outcome is the status, not 'end' (which a failed call may emit too, before its error).
  call.on('status', (st: StatusObject) => {
    c.done(st.code);
    if (st.code === status.OK) ended = true;
    notify();
  });
  call.on('error', (err: ServiceError) => {
    failure = RpcError.from(err);
    c.done(err.code);
    notify();
  });
  const iterator: AsyncIterator<Res> = {
    async next(): Promise<IteratorResult<Res>> {
      for (;;) {
        if (queue.length) {
          const value = queue.shift()!;
          if (queue.length < READ_AHEAD / 2 && call.isPaused()) call.resume();
          return { value, done: false };
        }
        if (failure) throw failure;
        if (ended) return { value: undefined, done: true };
        await new Promise<void>((r) => (wake = r));
      }
    },
    async return(): Promise<IteratorResult<Res>> {
      if (!ended && !failure) call.cancel();
      return { value: undefined, done: true };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator, cancel: () => call.cancel() };
}

/**
 * A target naming several replicas (`dns:///` a headless Service, or an `ipv4:` list) spreads its calls
 * over every address (round_robin; grpc-js's default, pick_first, sends everything down one
 * connection): each replica gets its share, one that goes away is dropped (re-resolved when a
 * connection closes, as the servers' connection age makes them do), and one that appears joins.
 * round_robin reconnects in the background with backoff, and while no address is ready a call fails
 * at once: the backoff is capped at 2 s, so a callee back from a restart is used within 2 s. A single
 * `host:port` keeps pick_first, which reconnects when a call needs it.
 */
const SPREAD_OPTIONS = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
};
const namesReplicas = (address: string) => /^(dns|ipv4|ipv6):/.test(address);

/**
 * A typed promise client: every unary method gets a deadline (default 5 s), carries the trace
 * context in metadata, is timed, and rejects with RpcError. `clientStream` and `serverStream` open
 * the streaming methods with the same metadata, timing and errors, and a deadline of the caller's.
 */
export function createClient<C extends Client>(Ctor: ClientCtor<C>, address: string, deps: ClientDeps): ServiceClient<C> {
  const raw = new Ctor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    ...(namesReplicas(address) ? SPREAD_OPTIONS : {}),
  });
  const paths = new Set(Object.values(Ctor.service).map((m) => m.path));
  const own = (path: string) => {
    if (!paths.has(path)) throw new Error(`${path} is not a method of this client's service`);
  };
  const out: Record<string, unknown> = {
    raw,
    close: () => raw.close(),
    clientStream: <Req, Res, W = Req>(
      method: ClientStreamingMethod<Req, Res>,
      opts: StreamCallOpts & { serialize?: (message: W) => Buffer },
    ) => {
      own(method.path);
      const serialize = opts.serialize ?? (method.requestSerialize as unknown as (message: W) => Buffer);
      return openClientStream<W, Res>(raw, method as ClientStreamingMethod<unknown, Res>, serialize, deps, opts);
    },
    serverStream: <Req, Res>(method: ServerStreamingMethod<Req, Res>, request: Req, opts: StreamCallOpts) => {
      own(method.path);
      return openServerStream(raw, method, request, deps, opts);
    },
  };
  for (const [name, method] of Object.entries(Ctor.service)) {
    if (method.requestStream || method.responseStream) continue;
    const label = labelOf(method.path);
    out[name] = (request: unknown, opts: CallOpts = {}) => {
      try {
        deps.breaker?.admit();
      } catch (err) {
        return Promise.reject(err);
      }
      const c = startCall(label, deps, opts);
      return new Promise((resolve, reject) => {
        const fn = (raw as unknown as Record<string, Function>)[name]!;
        fn.call(raw, request, c.metadata, { deadline: c.deadline }, (err: ServiceError | null, res: unknown) => {
          c.done(err ? err.code : status.OK);
          deps.breaker?.record(err ? transportFailure(err) : false);
          if (err) reject(RpcError.from(err));
          else resolve(res);
        });
      });
    };
  }
  return out as ServiceClient<C>;
}
