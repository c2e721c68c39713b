import { status } from '@grpc/grpc-js';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { createLogger, RpcError } from '@signet/kit';
import { errorBoundary, httpAnswerOf, httpStatusOf, HttpError } from './errors.js';

const rpc = (code: status, reason = status[code]!, details = 'the service said why', retry?: number) =>
  new RpcError(code, details, reason, retry);

describe('gRPC status → HTTP (the gateway’s one mapping)', () => {
  it.each([
    [status.INVALID_ARGUMENT, 'INVALID_ARGUMENT', 400],
    [status.UNAUTHENTICATED, 'UNAUTHENTICATED', 401],
    [status.FAILED_PRECONDITION, 'QUOTA_EXHAUSTED', 402],
    [status.PERMISSION_DENIED, 'PERMISSION_DENIED', 403],
    [status.NOT_FOUND, 'NOT_FOUND', 404],
    [status.FAILED_PRECONDITION, 'STALE_NONCE', 409],
    [status.ALREADY_EXISTS, 'ACCOUNT_EXISTS', 409],
    [status.OUT_OF_RANGE, 'PAYLOAD_TOO_LARGE', 413],
    [status.OUT_OF_RANGE, 'OUT_OF_RANGE', 400],
  ])('%s (%s) → %i with the service’s detail', (code, reason, http) => {
    expect(httpAnswerOf(rpc(code, reason))).toEqual({ status: http, detail: 'the service said why' });
    expect(httpStatusOf(rpc(code, reason))).toBe(http);
  });

  it('RESOURCE_EXHAUSTED → 429 with the service’s Retry-After', () => {
    expect(httpAnswerOf(rpc(status.RESOURCE_EXHAUSTED, 'RATE_LIMITED', 'slow down', 60))).toEqual({
      status: 429,
      detail: 'slow down',
      retryAfterSeconds: 60,
    });
  });

  it('UNAVAILABLE for contention → 503 with its message and its Retry-After', () => {
    const busy = rpc(status.UNAVAILABLE, 'CONTENTION', 'the transaction is changing too often; retry shortly', 1);
    expect(httpAnswerOf(busy)).toEqual({
      status: 503,
      detail: 'the transaction is changing too often; retry shortly',
      retryAfterSeconds: 1,
    });
  });

  it.each([
    [status.UNAVAILABLE, 'UNAVAILABLE'],
    [status.UNAVAILABLE, 'MAIL_UNAVAILABLE'],
    [status.DEADLINE_EXCEEDED, 'DEADLINE_EXCEEDED'],
  ])('%s (%s), an upstream down or late → 503, generic detail, Retry-After 5 s', (code, reason) => {
    expect(httpAnswerOf(rpc(code, reason))).toEqual({
      status: 503,
      detail: 'a service is unavailable; retry shortly',
      retryAfterSeconds: 5,
    });
  });

  it('an open circuit (the kit refused the call) → 503, generic detail, the breaker’s Retry-After', () => {
    expect(httpAnswerOf(rpc(status.UNAVAILABLE, 'CIRCUIT_OPEN', 'ledger is unavailable; retry shortly', 3))).toEqual({
      status: 503,
      detail: 'a service is unavailable; retry shortly',
      retryAfterSeconds: 3,
    });
  });

  it.each([status.INTERNAL, status.UNKNOWN, status.ABORTED, status.UNIMPLEMENTED, status.DATA_LOSS, status.CANCELLED])(
    '%s → 500 (the boundary adds a correlation id; the service’s words are not shown)',
    (code) => {
      expect(httpAnswerOf(rpc(code))).toEqual({ status: 500, detail: 'internal error' });
    },
  );
});

describe('errorBoundary', () => {
  const answer = (err: unknown) => {
    const out: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const res = {
      headersSent: false,
      setHeader: (k: string, v: string) => (out.headers[k] = v),
      status(code: number) {
        out.status = code;
        return this;
      },
      json: (b: unknown) => (out.body = b),
    } as unknown as Response;
    errorBoundary(createLogger('gateway-test', 'silent'))(err, {} as never, res, () => undefined);
    return out;
  };

  it('contention: 503, Retry-After from the service, {"detail"}', () => {
    const out = answer(rpc(status.UNAVAILABLE, 'CONTENTION', 'the account is changing too often; retry', 1));
    expect(out).toEqual({
      status: 503,
      headers: { 'Retry-After': '1' },
      body: { detail: 'the account is changing too often; retry' },
    });
  });

  it('an upstream down: 503 with Retry-After 5', () => {
    expect(answer(rpc(status.UNAVAILABLE))).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
  });

  it('a 4xx keeps the service’s detail and no Retry-After', () => {
    expect(answer(rpc(status.NOT_FOUND, 'NOT_FOUND', 'no such transaction'))).toEqual({
      status: 404,
      headers: {},
      body: { detail: 'no such transaction' },
    });
  });

  it('INTERNAL and unknown errors: 500 with a correlation id, never the message', () => {
    for (const err of [rpc(status.INTERNAL, 'INTERNAL', 'stack trace here'), new Error('secret')]) {
      const out = answer(err);
      expect(out.status).toBe(500);
      expect((out.body as { detail: string }).detail).toMatch(/^internal error \(correlation id \w+\)$/);
    }
  });

  it('the gateway’s own HttpError keeps its status and Retry-After', () => {
    expect(answer(new HttpError(429, 'too many', 30))).toEqual({
      status: 429,
      headers: { 'Retry-After': '30' },
      body: { detail: 'too many' },
    });
  });
});
