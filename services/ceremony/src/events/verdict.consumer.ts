import { eventsV1 } from '@signet/proto';
import type { DeliveredEvent, Logger } from '@signet/kit';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyCounters } from '../grpc/context.js';

export const VERDICT_SUBJECT = 'signet.biometrics.verdict';

/**
 * Records the biometric outcome on the capture it names, so the page can show it and the ceremony
 * knows whether a new challenge may be issued. Idempotent: the update only matches an unset outcome.
 */
export function verdictConsumer(deps: { sessions: SessionRepository; logger: Logger; counters: CeremonyCounters }) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = eventsV1.BiometricsVerdict.decode(delivered.data);
    const outcome = ev.outcome === 'PASS' ? 'PASS' : 'FAIL';
    const changed = await deps.sessions.recordOutcome(
      Number(ev.transactionId),
      ev.signerIndex,
      ev.captureId,
      outcome,
      outcome === 'FAIL' ? ev.failedChecks : [],
    );
    if (changed) deps.counters.verdicts.inc({ outcome });
  };
}
