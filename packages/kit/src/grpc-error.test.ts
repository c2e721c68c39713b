import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { contention, ContentionError, DomainError, type ErrorKind } from './errors.js';
import { kindToStatus, RpcError, toServiceError } from './grpc-error.js';

const reasonOf = (se: Partial<ServiceError>) => se.metadata?.get('signet-reason')[0];
const retryOf = (se: Partial<ServiceError>) => se.metadata?.get('signet-retry-after')[0];

describe('domain error → gRPC status (the kit’s one mapping)', () => {
  const expected: [ErrorKind, status][] = [
    ['invalid_argument', status.INVALID_ARGUMENT],
    ['unauthenticated', status.UNAUTHENTICATED],
    ['permission_denied', status.PERMISSION_DENIED],
    ['not_found', status.NOT_FOUND],
    ['conflict', status.FAILED_PRECONDITION],
    ['already_exists', status.ALREADY_EXISTS],
    ['quota_exhausted', status.FAILED_PRECONDITION],
    ['rate_limited', status.RESOURCE_EXHAUSTED],
    ['payload_too_large', status.OUT_OF_RANGE],
    ['unavailable', status.UNAVAILABLE],
    ['deadline_exceeded', status.DEADLINE_EXCEEDED],
    ['internal', status.INTERNAL],
  ];

  it('covers every kind', () => {
    expect(Object.keys(kindToStatus).sort()).toEqual(expected.map(([k]) => k).sort());
  });

  it.each(expected)('%s → %s, with the message and the reason', (kind, code) => {
    const se = toServiceError(new DomainError(kind, 'what happened', 'SOME_REASON'));
    expect(se.code).toBe(code);
    expect(se.details).toBe('what happened');
    expect(reasonOf(se)).toBe('SOME_REASON');
    expect(retryOf(se)).toBeUndefined();
  });

  it('a rate limit carries its Retry-After', () => {
    const se = toServiceError(new DomainError('rate_limited', 'slow down', 'RATE_LIMITED', 30));
    expect([se.code, retryOf(se)]).toEqual([status.RESOURCE_EXHAUSTED, '30']);
  });

  it('contention (optimistic-concurrency retries exhausted) → UNAVAILABLE, reason CONTENTION, Retry-After 1 s', () => {
    const err = contention('the transaction is changing too often; retry shortly');
    expect(err).toBeInstanceOf(ContentionError);
    expect(err).toBeInstanceOf(DomainError);
    const se = toServiceError(err);
    expect(se.code).toBe(status.UNAVAILABLE);
    expect(se.details).toBe('the transaction is changing too often; retry shortly');
    expect(reasonOf(se)).toBe('CONTENTION');
    expect(retryOf(se)).toBe('1');
    expect(retryOf(toServiceError(new ContentionError(undefined, 3)))).toBe('3');
  });

  it('an upstream failure passes through with its code and reason; an upstream deadline becomes UNAVAILABLE', () => {
    const nf = toServiceError(new RpcError(status.NOT_FOUND, 'no such thing', 'TX_NOT_FOUND'));
    expect([nf.code, nf.details, reasonOf(nf)]).toEqual([status.NOT_FOUND, 'no such thing', 'TX_NOT_FOUND']);
    const busy = toServiceError(new RpcError(status.UNAVAILABLE, 'busy', 'CONTENTION', 1));
    expect([busy.code, reasonOf(busy), retryOf(busy)]).toEqual([status.UNAVAILABLE, 'CONTENTION', '1']);
    expect(toServiceError(new RpcError(status.DEADLINE_EXCEEDED, 'late', 'DEADLINE_EXCEEDED')).code).toBe(status.UNAVAILABLE);
  });

  it('anything else is INTERNAL with a generic message (never the error’s own)', () => {
    const se = toServiceError(new Error('secret detail: lost too many races'));
    expect([se.code, se.details, reasonOf(se)]).toEqual([status.INTERNAL, 'internal error', 'INTERNAL']);
  });

  it('RpcError.from reads back what toServiceError wrote', () => {
    const se = toServiceError(contention()) as ServiceError;
    const back = RpcError.from({ ...se, message: '', name: 'Error' } as ServiceError);
    expect([back.code, back.reason, back.retryAfterSeconds, back.details]).toEqual([
      status.UNAVAILABLE,
      'CONTENTION',
      1,
      'the record is changing too often; retry shortly',
    ]);
    const bare = RpcError.from({ code: status.ABORTED, details: 'x', metadata: new Metadata() } as ServiceError);
    expect(bare.reason).toBe('ABORTED');
  });
});
