import { createCoalescingRunner, type Logger } from '@signet/kit';

/**
 * The B-LTA re-timestamping pass on a timer (at start and every `pollMs`): reads the timestamps of
 * newly sealed PDFs and renews those whose newest TSA certificate expires within the margin
 * (usecases/retimestamp-signed-pdfs.ts). Replicas share the work through the records' claims.
 */
export function createRetimestampJob(pass: () => Promise<unknown>, opts: { logger: Logger; pollMs: number }) {
  const runner = createCoalescingRunner(pass, {
    logger: opts.logger,
    periodMs: opts.pollMs,
    failure: 'signed PDF re-timestamping pass failed; will retry',
  });
  return {
    kick: () => void runner.run(),
    start: () => runner.start({ immediately: true }),
    stop: () => runner.stop(),
  };
}
