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

/** An HTTP answer to a failed call: status, `detail`, and Retry-After for the retryable ones. */
export type HttpAnswer = { status: number; detail: string; retryAfterSeconds?: number };

/** Retry-After of a 503 whose service gave none: an upstream that is down or restarting. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The one mapping from a service's gRPC status to HTTP (DESIGN §2). Answers under 500 keep the
 * service's message; UNAVAILABLE (contention, an upstream down) and DEADLINE_EXCEEDED are 503 with
 * Retry-After — contention (reason CONTENTION) keeps its message and its Retry-After, an upstream down
 * gets a generic message; anything else is 500, answered by the error boundary with a correlation id.
 */
export function httpAnswerOf(err: RpcError): HttpAnswer {
  const keep = (status: number): HttpAnswer => ({ status, detail: err.details, retryAfterSeconds: err.retryAfterSeconds });
  switch (err.code) {
    case status.INVALID_ARGUMENT:
      return keep(400);
    case status.UNAUTHENTICATED:
      return keep(401);
    case status.PERMISSION_DENIED:
      return keep(403);
    case status.NOT_FOUND:
      return keep(404);
    case status.FAILED_PRECONDITION:
      return keep(err.reason === 'QUOTA_EXHAUSTED' ? 402 : 409);
    case status.ALREADY_EXISTS:
      return keep(409);
    case status.RESOURCE_EXHAUSTED:
      return keep(429);
    case status.OUT_OF_RANGE:
      return keep(err.reason === 'PAYLOAD_TOO_LARGE' ? 413 : 400);
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
      return {
        status: 503,
        detail: err.reason === 'CONTENTION' ? err.details : 'a service is unavailable; retry shortly',
        retryAfterSeconds: err.retryAfterSeconds ?? UNAVAILABLE_RETRY_SECONDS,
      };
    default:
      return { status: 500, detail: 'internal error' };
  }
}

export const httpStatusOf = (err: RpcError): number => httpAnswerOf(err).status;

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
      const a = httpAnswerOf(err);
      if (a.status !== 500) return sendError(res, a.status, a.detail, a.retryAfterSeconds);
    }
    // body-parser: malformed JSON or a body over the limit.
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.parse.failed') return sendError(res, 400, 'request body is not valid JSON');
    if (e.type === 'entity.too.large') return sendError(res, 413, 'request body is too large');
    const client = clientErrorOf(err);
    if (client) return sendError(res, client.status, client.detail);
    const correlation = trace.getActiveSpan()?.spanContext().traceId ?? 'none';
    logger.error({ err, correlation_id: correlation }, 'unhandled error');
    sendError(res, 500, `internal error (correlation id ${correlation})`);
  };
}

/** body-parser's other refusals of a request it cannot read, by type (its own messages may echo input). */
const BODY_ERRORS: Record<string, string> = {
  'request.aborted': 'the request was aborted',
  'request.size.invalid': 'the request body is shorter or longer than its Content-Length',
  'encoding.unsupported': 'the Content-Encoding of the body is not supported',
  'charset.unsupported': 'the charset of the body is not supported',
};

/**
 * A refusal of the request itself raised before any route code: a path parameter that is not valid
 * percent-encoded UTF-8 (the router throws a URIError with status 400), or a body body-parser
 * cannot read. Always a 4xx with a fixed detail (the raw input is never echoed); undefined otherwise.
 */
export function clientErrorOf(err: unknown): HttpAnswer | undefined {
  const e = err as { type?: string; status?: unknown; expose?: unknown };
  if (err instanceof URIError) return { status: 400, detail: 'a path parameter is not valid percent-encoded UTF-8' };
  if (typeof e?.status !== 'number' || e.status < 400 || e.status > 499 || e.expose !== true) return undefined;
  return { status: e.status, detail: (e.type && BODY_ERRORS[e.type]) || 'the request could not be read' };
}
