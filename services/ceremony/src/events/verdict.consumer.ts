import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { applyVerdict } from '../usecases/apply-verdict.js';

/** `biometrics.verdict.issued`: decodes the event and applies the verdict (usecases/apply-verdict.ts). */
export function verdictConsumer(deps: Parameters<typeof applyVerdict>[0]) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.verdictIssued.message.decode(delivered.data);
    await applyVerdict(deps, {
      transactionId: Number(ev.transactionId),
      signerIndex: ev.signerIndex,
      captureId: ev.captureId,
      outcome: ev.outcome,
      failedChecks: ev.failedChecks,
    });
  };
}
