/**
 * Typed domain errors. Services throw these; the kit maps them to gRPC status codes once, and the
 * gateway maps gRPC status codes to HTTP once (DESIGN §2). Messages are for people and must not
 * carry secrets, tokens, codes or personal data beyond what the caller already sent.
 */
export type ErrorKind =
  | 'invalid_argument'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'conflict'
  | 'already_exists'
  | 'quota_exhausted'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unavailable'
  | 'deadline_exceeded'
  | 'internal';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Machine-readable reason, e.g. QUOTA_EXHAUSTED. */
    readonly reason: string = kind.toUpperCase(),
    /** For rate limits: seconds until a retry may succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, reason?: string) => new DomainError('invalid_argument', message, reason);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, reason?: string) => new DomainError('conflict', message, reason);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('permission_denied', message);
export const quotaExhausted = (message: string) => new DomainError('quota_exhausted', message, 'QUOTA_EXHAUSTED');
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DomainError('rate_limited', message, 'RATE_LIMITED', retryAfterSeconds);

/**
 * Optimistic-concurrency retries exhausted: the record kept changing under this write. Retryable, so
 * it is `unavailable` (gRPC UNAVAILABLE, reason CONTENTION, a short Retry-After), never INTERNAL; the
 * gateway answers it 503 with Retry-After.
 */
export class ContentionError extends DomainError {
  constructor(message = 'the record is changing too often; retry shortly', retryAfterSeconds = 1) {
    super('unavailable', message, 'CONTENTION', retryAfterSeconds);
    this.name = 'ContentionError';
  }
}

export const contention = (message?: string, retryAfterSeconds?: number) => new ContentionError(message, retryAfterSeconds);
