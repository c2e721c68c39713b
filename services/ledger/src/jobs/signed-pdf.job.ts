import { createCoalescingRunner, type Logger } from '@signet/kit';

/**
 * The signed-PDF sealing pass on a timer (every `pollMs`, and soon after a `kick`): seals each
 * pending PDF that is due; a PDF no TSA could time-stamp waits for its next attempt.
 */
export function createSignedPdfJob(pass: () => Promise<unknown>, opts: { logger: Logger; pollMs: number }) {
  const runner = createCoalescingRunner(pass, {
    logger: opts.logger,
    periodMs: opts.pollMs,
    failure: 'signed PDF sealing pass failed; will retry',
  });
  return {
    kick: () => void runner.run(),
    start: () => runner.start({ immediately: true }),
    stop: () => runner.stop(),
  };
}
