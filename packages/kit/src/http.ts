import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Metrics } from './metrics.js';
import { isDraining } from './lifecycle.js';

const tracer = trace.getTracer('signet-http');

/** Times every request by its route template and opens a server span continuing the caller's trace. */
export function requestInstrumentation(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = metrics.httpDuration.startTimer({ method: req.method });
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(`${req.method}`, { kind: SpanKind.SERVER }, parent);
    res.on('finish', () => {
      // The matched route template, never the concrete path (which carries ids and tokens).
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      end({ route, status: String(res.statusCode) });
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

export type ReadinessCheck = {
  name: string;
  check: () => Promise<unknown>;
  /**
   * Whether a failure makes the pod unready (default: yes, except `nats`). Reported in /readyz
   * either way. NATS does not gate readiness: every service publishes through its outbox, so
   * without NATS it still serves and its events wait in its own database; an unready pod would only
   * take its calls away too (docs/runbook.md "Readiness").
   */
  gating?: boolean;
};

const gates = (c: ReadinessCheck) => c.gating ?? c.name !== 'nats';

/** Runs every check with a deadline; ready when every gating check answers. */
export async function readiness(checks: ReadinessCheck[], timeoutMs = 2000) {
  // Shutting down: leave the endpoints before the listeners close (lifecycle.ts runMain).
  if (isDraining()) return { ready: false, checks: { shutdown: 'draining' } as Record<string, string> };
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        await Promise.race([
          c.check(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
        ]);
        return [c.name, 'ok', gates(c)] as const;
      } catch (err) {
        return [c.name, err instanceof Error ? err.message : 'failed', gates(c)] as const;
      }
    }),
  );
  return {
    ready: results.every(([, r, gating]) => r === 'ok' || !gating),
    checks: Object.fromEntries(results.map(([name, r, gating]) => [name, r === 'ok' || gating ? r : `${r} (not required)`])),
  };
}

/** Adds /healthz (alive), /readyz (dependencies answer) and /metrics to an express app. */
export function mountOps(app: Express, metrics: Metrics, checks: ReadinessCheck[], opts: { metrics?: boolean } = {}) {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const r = await readiness(checks);
    res.status(r.ready ? 200 : 503).json({ status: r.ready ? 'ready' : 'not ready', checks: r.checks });
  });
  if (opts.metrics !== false) {
    app.get('/metrics', async (_req, res) => {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
}

/** The operations server every service runs on OPS_PORT. */
export function createOpsApp(metrics: Metrics, checks: ReadinessCheck[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestInstrumentation(metrics));
  mountOps(app, metrics, checks);
  return app;
}
