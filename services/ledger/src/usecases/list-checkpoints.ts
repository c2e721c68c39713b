import { invalid } from '@signet/kit';
import type { LedgerLog } from '../log/ledger-log.js';

export const CHECKPOINT_PAGE_MAX = 100;

export type CheckpointPage = {
  checkpoints: { size: number; checkpoint: string; signedAt: Date; cosignatures: number }[];
  /** The `from` of the next page, or null when this page ends the range. */
  nextFrom: number | null;
};

/**
 * ListCheckpoints: every signed checkpoint with from ≤ size ≤ to (to 0: the current size), oldest
 * first, with the witness cosignatures stored with it; pages of at most `pageSize` (≤ 100).
 */
export async function listCheckpoints(
  deps: { log: Pick<LedgerLog, 'history' | 'head'> },
  input: { from: number; to: number; pageSize: number },
): Promise<CheckpointPage> {
  const head = await deps.log.head();
  const to = input.to === 0 ? head.size : input.to;
  if (input.from < 1) throw invalid('from must be at least 1');
  if (to < input.from) throw invalid('to must not be smaller than from');
  const limit = Math.min(Math.max(input.pageSize || CHECKPOINT_PAGE_MAX, 1), CHECKPOINT_PAGE_MAX);
  const rows = await deps.log.history(input.from, to, limit + 1);
  const page = rows.slice(0, limit);
  return {
    checkpoints: page.map((c) => ({
      size: c.size,
      checkpoint: c.checkpoint,
      signedAt: c.at,
      cosignatures: Object.keys(c.cosignatures).length,
    })),
    nextFrom: rows.length > limit ? rows[limit]!.size : null,
  };
}
