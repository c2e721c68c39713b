import { createCoalescingRunner, type Logger } from '@signet/kit';
import type { LedgerLog } from '../log/ledger-log.js';

/**
 * The sealing pass on a timer: at start (leaves a crashed process claimed but never checkpointed),
 * every LEDGER_SEAL_POLL_MS, and soon after each issue (`kick`). Concurrent kicks coalesce into one
 * more pass; across replicas the tree head's writer lease lets one seal at a time.
 */
export function createSealJob(log: Pick<LedgerLog, 'sealPending'>, opts: { logger: Logger; pollMs?: number }) {
  const runner = createCoalescingRunner(log.sealPending, {
    logger: opts.logger,
    periodMs: opts.pollMs ?? 1000,
    failure: 'sealing pass failed; will retry',
  });
  return {
    /** Seal soon (after an insert). */
    kick: () => void runner.run(),
    start: () => runner.start({ immediately: true }),
    stop: () => runner.stop(),
  };
}

export type SealJob = ReturnType<typeof createSealJob>;
