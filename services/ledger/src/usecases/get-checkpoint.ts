import type { LedgerLog } from '../log/ledger-log.js';
import type { TreeHead } from '../store/tree.repository.js';

/**
 * GetCheckpoint: the log's published checkpoint (size, root) as a signed note with its witness
 * cosignatures — the head, or with witnesses the newest checkpoint their quorum cosigned.
 */
export function getCheckpoint(deps: { log: Pick<LedgerLog, 'published'> }): Promise<TreeHead> {
  return deps.log.published();
}
