import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { DomainError, type ErrorKind } from './errors.js';

/** Metadata keys of a failed call: the machine-readable reason and, for retryable refusals, seconds to wait. */
export const REASON_KEY = 'signet-reason';
export const RETRY_KEY = 'signet-retry-after';

/** Each domain error kind's gRPC status (DESIGN §2). Contention (`ContentionError`) is `unavailable`: retryable. */
export const kindToStatus: Readonly<Record<ErrorKind, status>> = {
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
