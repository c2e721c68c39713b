import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';

export type RequestErasureDeps = Pick<CeremonyDeps, 'now'> & {
  sessions: Pick<SessionRepository, 'requestErasure'>;
  /** Wakes the erasure job. */
  onRequested: () => void;
};

/**
 * Records the transaction's request to erase its capture media on every session of it (written
 * before the event is acked; a redelivery finds them asked and changes nothing), then wakes the job.
 */
export async function requestErasure(deps: RequestErasureDeps, req: { transactionId: number; reason: string }): Promise<void> {
  // Who asked: the sender, the signer (their completion mail's link) or the retention; anything else counts as retention.
  const reason = req.reason === 'sender' || req.reason === 'signer' ? req.reason : 'retention';
  await deps.sessions.requestErasure(req.transactionId, reason, new Date(deps.now()));
  deps.onRequested();
}
