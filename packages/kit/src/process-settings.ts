/**
 * Settings of the running process that belong to no one call site: runMain applies them from the
 * service's configuration (baseSchema) before the service starts, so every service gets them without
 * wiring; a service started in-process by the tests keeps these defaults.
 */
export type ProcessConfig = {
  /** gRPC servers close each client connection after this long (GOAWAY), 0 = never: see grpcServerOptions. */
  GRPC_MAX_CONNECTION_AGE_MS?: number;
  /** Time calls in flight on an aged connection get to finish. */
  GRPC_MAX_CONNECTION_AGE_GRACE_MS?: number;
  /** Replicas of the SIGNET and SIGNET_DLQ JetStream streams (1, or 3 on a three-node JetStream cluster). */
  EVENTS_STREAM_REPLICAS?: number;
  /** Age after which events leave the SIGNET stream. */
  EVENTS_STREAM_MAX_AGE_DAYS?: number;
  /** Size limit of the SIGNET stream in bytes (-1: none); past it JetStream refuses new events. */
  EVENTS_STREAM_MAX_BYTES?: number;
};

export type ProcessSettings = {
  grpcMaxConnectionAgeMs: number;
  grpcMaxConnectionAgeGraceMs: number;
  stream: { replicas: number; maxAgeDays: number; maxBytes: number };
};

const DEFAULTS: ProcessSettings = {
  grpcMaxConnectionAgeMs: 0,
  grpcMaxConnectionAgeGraceMs: 60_000,
  stream: { replicas: 1, maxAgeDays: 30, maxBytes: -1 },
};

let current: ProcessSettings = structuredClone(DEFAULTS);

export const processSettings = (): ProcessSettings => current;

export function configureProcess(cfg: ProcessConfig): ProcessSettings {
  current = {
    grpcMaxConnectionAgeMs: cfg.GRPC_MAX_CONNECTION_AGE_MS ?? DEFAULTS.grpcMaxConnectionAgeMs,
    grpcMaxConnectionAgeGraceMs: cfg.GRPC_MAX_CONNECTION_AGE_GRACE_MS ?? DEFAULTS.grpcMaxConnectionAgeGraceMs,
    stream: {
      replicas: cfg.EVENTS_STREAM_REPLICAS ?? DEFAULTS.stream.replicas,
      maxAgeDays: cfg.EVENTS_STREAM_MAX_AGE_DAYS ?? DEFAULTS.stream.maxAgeDays,
      maxBytes: cfg.EVENTS_STREAM_MAX_BYTES ?? DEFAULTS.stream.maxBytes,
    },
  };
  return current;
}

/**
 * gRPC server channel options. Load spreading: clients hold one long-lived HTTP/2 connection to a
 * Service's ClusterIP, so replicas added by the HPA would get nothing from existing callers; closing
 * each connection after GRPC_MAX_CONNECTION_AGE_MS (grpc-js adds ±10 % jitter) makes clients
 * reconnect and land on any replica, with GRPC_MAX_CONNECTION_AGE_GRACE_MS for calls in flight.
 * Keepalive: the server pings an idle client every minute and drops it after 20 s without an answer
 * (a node gone without a FIN), and accepts the clients' 30 s pings (grpc-client.ts).
 */
export function grpcServerOptions(s: ProcessSettings = current): Record<string, number> {
  return {
    'grpc.keepalive_time_ms': 60_000,
    'grpc.keepalive_timeout_ms': 20_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.http2.min_ping_interval_without_data_ms': 10_000,
    ...(s.grpcMaxConnectionAgeMs > 0
      ? {
          'grpc.max_connection_age_ms': s.grpcMaxConnectionAgeMs,
          'grpc.max_connection_age_grace_ms': s.grpcMaxConnectionAgeGraceMs,
        }
      : {}),
  };
}
