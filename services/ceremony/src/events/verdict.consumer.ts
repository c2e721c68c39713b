import { eventsV1 } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { applyVerdict } from '../usecases/apply-verdict.js';

export const VERDICT_SUBJECT = 'signet.biometrics.verdict';

/** `biometrics.verdict`: decodes the event and applies the verdict (usecases/apply-verdict.ts). */
export function verdictConsumer(deps: Parameters<typeof applyVerdict>[0]) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = eventsV1.BiometricsVerdict.decode(delivered.data);
    await applyVerdict(deps, {
      transactionId: Number(ev.transactionId),
      signerIndex: ev.signerIndex,
      captureId: ev.captureId,
      outcome: ev.outcome,
      failedChecks: ev.failedChecks,
    });
  };
}
