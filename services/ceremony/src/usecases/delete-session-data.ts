import type { SessionDeletionStore } from '../store/session-deletion.repository.js';
import type { CeremonyDeps } from './deps.js';

export type DeleteSessionDataDeps = Pick<CeremonyDeps, 'now'> & {
  deletion: Pick<SessionDeletionStore, 'scrubTransaction'>;
};

/**
 * The owner deleted the transaction (signet.transaction.deleted; docs/privacy.md): its sessions lose
 * the signer's e-mail and the recorded addresses and browsers, its forensic batches go. The capture
 * media go through the erasure the transaction service requested in the same write. Idempotent.
 */
export async function deleteSessionData(deps: DeleteSessionDataDeps, transactionId: number): Promise<number> {
  if (!(transactionId > 0)) return 0;
  return deps.deletion.scrubTransaction(transactionId, new Date(deps.now()));
}
