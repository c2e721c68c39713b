import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';
import { configureProcess, type ProcessConfig } from './process-settings.js';

export type Stoppable = { stop(): Promise<void> };

/**
 * The process's shutdown state: runMain sets it (one process runs one service). While draining,
 * readiness answers 503 (http.ts) so the pod leaves its Service's endpoints before it stops accepting.
 */
const shutdownState = { draining: false, drainMs: 5_000, stopStartedAt: 0 };
/** True from SIGTERM on: readiness fails, in-flight work finishes. */
export const isDraining = () => shutdownState.draining;
/** How long closeServer and the gRPC shutdown wait for in-flight requests before cutting them. */
export const drainTimeoutMs = () => shutdownState.drainMs;
/** What is left of the drain since the service began to stop (the whole drain before that). */
export const drainRemainingMs = () =>
  shutdownState.stopStartedAt
    ? Math.max(0, shutdownState.stopStartedAt + shutdownState.drainMs - Date.now())
    : shutdownState.drainMs;

export type ShutdownConfig = ProcessConfig & {
  /** Time between SIGTERM and closing the listeners, serving as usual with readiness at 503. */
  SHUTDOWN_DELAY_MS?: number;
  /** Time from SIGTERM to a forced exit; keep it under the pod's terminationGracePeriodSeconds. */
  SHUTDOWN_TIMEOUT_MS?: number;
};

const responses = new WeakMap<Server, Set<ServerResponse>>();

/**
 * Listens and resolves with the bound port (0 picks a free one); rejects when the port cannot be bound.
 * Express 5's app.listen calls its callback with the error too (EADDRINUSE), so the callback must look at
 * it: taking the call for success left a service running that listened nowhere.
 */
export function listen(
  app: { listen: (port: number, host: string, cb: (err?: Error) => void) => Server },
  port: number,
  host = '0.0.0.0',
) {
  return new Promise<{ server: Server; port: number }>((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
      trackResponses(server);
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : port });
    });
    server.once('error', reject);
  });
}

/** Keeps the responses of `server` that are still open, so closeServer can end their connections after them. */
function trackResponses(server: Server) {
  if (responses.has(server)) return;
  const open = new Set<ServerResponse>();
  responses.set(server, open);
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => open.delete(res));
  });
}

/**
 * Stops accepting connections and lets every request in flight finish: idle keep-alive connections
 * close now, busy ones after their response (it says `Connection: close`, so no client sends another
 * request on a socket about to go away); after `graceMs` whatever is left is cut.
 */
export function closeServer(server: Server, graceMs: number = drainTimeoutMs()): Promise<void> {
  return new Promise((resolve) => {
    const closing = (res: ServerResponse) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    };
    for (const res of responses.get(server) ?? []) closing(res);
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => closing(res));
    const force = setTimeout(() => server.closeAllConnections?.(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections?.();
  });
}

/**
 * Runs a service's process: starts it, and on SIGTERM/SIGINT drains: readiness answers 503 at once,
 * the listeners keep serving for SHUTDOWN_DELAY_MS (while the pod leaves the endpoints; 0 when a
 * preStop hook already waited), then stop accepting, requests and calls in flight finish, consumers
 * finish their message, connections close and the process exits 0. Past SHUTDOWN_TIMEOUT_MS it
 * exits 1; so does a second signal.
 */
export function runMain(logger: Logger, start: () => Promise<Stoppable>, cfg: ShutdownConfig = {}): void {
  let stopping = false;
  const delayMs = cfg.SHUTDOWN_DELAY_MS ?? 0;
  const timeoutMs = cfg.SHUTDOWN_TIMEOUT_MS ?? 25_000;
  // What is left after the delay, less a few seconds to close clients and flush.
  shutdownState.drainMs = Math.max(1_000, timeoutMs - delayMs - 3_000);
  configureProcess(cfg);
  start().then(
    (svc) => {
      const shutdown = (signal: string) => {
        if (stopping) process.exit(1);
        stopping = true;
        shutdownState.draining = true;
        logger.info({ signal, delay_ms: delayMs, timeout_ms: timeoutMs }, 'draining');
        const force = setTimeout(() => {
          logger.error({ timeout_ms: timeoutMs }, 'shutdown timed out; exiting');
          process.exit(1);
        }, timeoutMs);
        force.unref();
        new Promise((r) => setTimeout(r, delayMs))
          .then(() => {
            shutdownState.stopStartedAt = Date.now();
            return svc.stop();
          })
          .then(
            () => {
              logger.info('stopped');
              process.exit(0);
            },
            (err: unknown) => {
              logger.error({ err }, 'shutdown failed');
              process.exit(1);
            },
          );
      };
      process.on('SIGTERM', () => shutdown('SIGTERM'));
      process.on('SIGINT', () => shutdown('SIGINT'));
    },
    (err: unknown) => {
      logger.fatal({ err }, 'failed to start');
      process.exit(1);
    },
  );
}
