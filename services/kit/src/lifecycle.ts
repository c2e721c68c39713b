import type { Server } from 'node:http';
import type { Logger } from './logger.js';

export type Stoppable = { stop(): Promise<void> };

/** Listens and resolves with the bound port (0 picks a free one). */
export function listen(app: { listen: (port: number, host: string, cb: () => void) => Server }, port: number, host = '0.0.0.0') {
  return new Promise<{ server: Server; port: number }>((resolve, reject) => {
    const server = app.listen(port, host, () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : port });
    });
    server.once('error', reject);
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections?.();
    setTimeout(() => server.closeAllConnections?.(), 5000).unref();
  });
}

/**
 * Runs a service's process: starts it, and on SIGTERM/SIGINT stops taking work, drains in-flight
 * work, closes connections and exits. A second signal exits at once.
 */
export function runMain(logger: Logger, start: () => Promise<Stoppable>): void {
  let stopping = false;
  start().then(
    (svc) => {
      const shutdown = (signal: string) => {
        if (stopping) process.exit(1);
        stopping = true;
        logger.info({ signal }, 'draining');
        const force = setTimeout(() => process.exit(1), 25_000);
        force.unref();
        svc.stop().then(
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
