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
  const reason = req.reason === 'sender' ? 'sender' : 'retention';
  await deps.sessions.requestErasure(req.transactionId, reason, new Date(deps.now()));
  deps.onRequested();
}
