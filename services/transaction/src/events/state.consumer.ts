import type { DeliveredEvent } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { acceptCapture } from '../usecases/accept-capture.js';
import { acceptConsent } from '../usecases/accept-consent.js';
import type { ChangeDeps } from '../usecases/apply-change.js';
import { applyVerdict } from '../usecases/apply-verdict.js';
import { forfeitAttempt } from '../usecases/forfeit-attempt.js';
import { recordCertificate } from '../usecases/record-certificate.js';

export const STATE_SUBJECTS = ['signet.ceremony.>', 'signet.biometrics.verdict', 'signet.ledger.certificate.issued'];
export const STATE_DURABLE = 'transaction-state';

/**
 * The durable consumer of ceremony, biometrics and ledger events: decodes each and calls its use case,
 * which moves the state through usecases/apply-change.ts. Idempotent: a redelivery finds nothing left to apply.
 */
export function stateConsumer(deps: ChangeDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    switch (ev.subject) {
      case 'signet.ceremony.consent.accepted': {
        const e = eventsV1.ConsentAccepted.decode(ev.data);
        const at = e.occurredAt ? new Date(e.occurredAt) : undefined;
        return acceptConsent(deps, { transactionId: Number(e.transactionId), signerIndex: e.signerIndex, at });
      }
      case 'signet.ceremony.capture.submitted': {
        const e = eventsV1.CaptureSubmitted.decode(ev.data);
        return acceptCapture(deps, Number(e.transactionId), {
          index: e.signerIndex,
          capture_id: e.captureId,
          attempt: e.attempt,
          video_sha256: e.videoSha256,
          frame_sha256: e.frameSha256,
        });
      }
      case 'signet.ceremony.attempt.forfeited': {
        const e = eventsV1.AttemptForfeited.decode(ev.data);
        return forfeitAttempt(deps, Number(e.transactionId), {
          index: e.signerIndex,
          capture_id: e.captureId,
          attempt: e.attempt,
          reason: e.reason,
        });
      }
      case 'signet.biometrics.verdict': {
        const e = eventsV1.BiometricsVerdict.decode(ev.data);
        return applyVerdict(deps, Number(e.transactionId), {
          index: e.signerIndex,
          capture_id: e.captureId,
          outcome: e.outcome,
          failed_checks: e.failedChecks,
          assurance: e.assurance,
        });
      }
      case 'signet.ledger.certificate.issued': {
        const e = eventsV1.CertificateIssued.decode(ev.data);
        return recordCertificate(deps, Number(e.transactionId), e.reference);
      }
      default:
        // Other ceremony facts (challenge issued, forensic logs) do not move the state.
        return;
    }
  };
}
