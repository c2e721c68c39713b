import { pino, type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

/**
 * JSON logs with the active trace id. Logs are events, not payloads: the redaction list is a
 * safety net for field names that must never be written, not a licence to log request bodies.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'code',
        '*.code',
        'secret',
        '*.secret',
        'apiKey',
        '*.apiKey',
        'authorization',
        '*.authorization',
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const ctx = span.spanContext();
      return { trace_id: ctx.traceId, span_id: ctx.spanId };
    },
  });
}
