import type { Logger } from './logger.js';

export type CoalescingRunner = {
  /** Runs a pass now, or, if one is running, asks for one more after it (calls made meanwhile coalesce). */
  run(): Promise<void>;
  /** Starts the periodic pass (and one pass now when `immediately`). */
  start(opts?: { immediately?: boolean }): void;
  /** No pass starts after this; resolves when the running one, if any, has finished. */
  stop(): Promise<void>;
};

/**
 * Runs an idempotent background pass one at a time: on a timer, and on demand after a write. A pass
 * failing is logged and left to the next call; it never escapes as an unhandled rejection.
 */
export function createCoalescingRunner(
  pass: () => Promise<unknown>,
  opts: { logger: Logger; periodMs: number; failure: string },
): CoalescingRunner {
  let running = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await pass();
      } while (again && !stopped);
    } catch (err) {
      opts.logger.warn({ err }, opts.failure);
    } finally {
      running = false;
    }
  };

  return {
    run,
    start({ immediately = false } = {}) {
      if (stopped || timer) return;
      timer = setInterval(() => void run(), opts.periodMs);
      timer.unref();
      if (immediately) void run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 10));
    },
  };
}
