import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';

export type Verdict = {
  transactionId: number;
  signerIndex: number;
  captureId: string;
  /** PASS; ERROR (could not be judged for a technical reason: no attempt charged); anything else is a FAIL. */
  outcome: string;
  failedChecks: string[];
};

/**
 * Records the biometric outcome on the capture it names, so the page can show it and the ceremony
 * knows whether a new challenge may be issued; a FAIL keeps its failed checks (never scores), an
 * ERROR is kept as such so the page can say the recording was not judged and no attempt was used.
 * Idempotent: only an unset outcome is written, so a redelivered verdict changes nothing.
 */
export async function applyVerdict(
  deps: Pick<CeremonyDeps, 'metrics'> & { sessions: Pick<SessionRepository, 'recordOutcome'> },
  v: Verdict,
): Promise<boolean> {
  const outcome = v.outcome === 'PASS' || v.outcome === 'ERROR' ? v.outcome : 'FAIL';
  const changed = await deps.sessions.recordOutcome(
    v.transactionId,
    v.signerIndex,
    v.captureId,
    outcome,
    outcome === 'PASS' ? [] : v.failedChecks,
  );
  if (changed) deps.metrics.verdicts.inc({ outcome });
  return changed;
}
