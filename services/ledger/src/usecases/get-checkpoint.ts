import type { LedgerLog } from '../log/ledger-log.js';
import type { TreeHead } from '../store/tree.repository.js';

/** GetCheckpoint: the log's current head (size, root) and its signed checkpoint. */
export function getCheckpoint(deps: { log: Pick<LedgerLog, 'head'> }): Promise<TreeHead> {
  return deps.log.head();
}
