import { status } from '@grpc/grpc-js';
import type { ErrorRequestHandler, Response } from 'express';
import { trace } from '@opentelemetry/api';
import { DomainError, RpcError, type Logger } from '@signet/kit';

/** An error raised by the gateway itself (validation, authentication) with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);

/** The one mapping from a service's gRPC status to HTTP (DESIGN §2). */
export function httpStatusOf(err: RpcError): number {
  switch (err.code) {
    case status.INVALID_ARGUMENT:
      return 400;
    case status.UNAUTHENTICATED:
      return 401;
    case status.PERMISSION_DENIED:
      return 403;
    case status.NOT_FOUND:
      return 404;
    case status.FAILED_PRECONDITION:
      return err.reason === 'QUOTA_EXHAUSTED' ? 402 : 409;
    case status.ALREADY_EXISTS:
      return 409;
    case status.RESOURCE_EXHAUSTED:
      return 429;
    case status.OUT_OF_RANGE:
      return err.reason === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
      return 503;
    default:
      return 500;
  }
}

export function sendError(res: Response, code: number, detail: string, retryAfterSeconds?: number) {
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  res.status(code).json({ detail });
}

/** The global error boundary: known errors keep their status; anything else is a generic 500 with a correlation id. */
export function errorBoundary(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) return sendError(res, err.status, err.detail, err.retryAfterSeconds);
    if (err instanceof DomainError && err.kind === 'invalid_argument') return sendError(res, 400, err.message);
    if (err instanceof RpcError) {
      const code = httpStatusOf(err);
      if (code < 500) return sendError(res, code, err.details, err.retryAfterSeconds);
      if (code === 503) return sendError(res, 503, 'a service is unavailable; retry shortly', 5);
    }
    // body-parser: malformed JSON or a body over the limit.
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.parse.failed') return sendError(res, 400, 'request body is not valid JSON');
    if (e.type === 'entity.too.large') return sendError(res, 413, 'request body is too large');
    const correlation = trace.getActiveSpan()?.spanContext().traceId ?? 'none';
    logger.error({ err, correlation_id: correlation }, 'unhandled error');
    sendError(res, 500, `internal error (correlation id ${correlation})`);
  };
}
