import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { Cosigner } from '../log/cosign.js';

/**
 * The cosigning pass on a timer: at start, every LEDGER_COSIGN_POLL_MS (a witness that was down is
 * asked again) and soon after each new checkpoint (`kick`). Passes run one at a time per replica;
 * replicas racing at one witness are harmless (it answers the loser 409 with the size it knows).
 */
export function createCosignJob(cosigner: Pick<Cosigner, 'cosignPending'>, opts: { logger: Logger; pollMs: number }) {
  const runner = createCoalescingRunner(cosigner.cosignPending, {
    logger: opts.logger,
    periodMs: opts.pollMs,
    failure: 'cosigning pass failed; will retry',
  });
  return {
    kick: () => void runner.run(),
    start: () => runner.start({ immediately: true }),
    stop: () => runner.stop(),
  };
}

export type CosignJob = ReturnType<typeof createCosignJob>;
