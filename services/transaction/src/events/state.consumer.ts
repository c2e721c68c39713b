import type { DeliveredEvent } from '@signet/kit';
import { events, type EventEntry } from '@signet/proto';
import { acceptCapture } from '../usecases/accept-capture.js';
import { acceptConsent } from '../usecases/accept-consent.js';
import type { ChangeDeps } from '../usecases/apply-change.js';
import { applyVerdict } from '../usecases/apply-verdict.js';
import { forfeitAttempt } from '../usecases/forfeit-attempt.js';
import { recordCertificate } from '../usecases/record-certificate.js';

export const STATE_DURABLE = 'transaction-state';
/** What moves the state machine: the ceremony's facts, the verdicts and the issued certificates. */
export const STATE_EVENTS: EventEntry[] = [
  events.consentAccepted,
  events.captureSubmitted,
  events.attemptForfeited,
  events.verdictIssued,
  events.certificateIssued,
];

/**
 * The durable consumer of ceremony, biometrics and ledger events: decodes each and calls its use case,
 * which moves the state through usecases/apply-change.ts. Idempotent: a redelivery finds nothing left to apply.
 */
export function stateConsumer(deps: ChangeDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    switch (ev.subject) {
      case events.consentAccepted.subject: {
        const e = events.consentAccepted.message.decode(ev.data);
        const at = e.occurredAt ? new Date(e.occurredAt) : undefined;
        const trail = {
          textVersion: e.consentTextVersion,
          ip: e.ip,
          userAgent: e.userAgent,
          openedAt: e.openedAt ? new Date(e.openedAt) : null,
          attestationTextSha256: e.attestationTextSha256,
        };
        return acceptConsent(deps, { transactionId: Number(e.transactionId), signerIndex: e.signerIndex, at, trail });
      }
      case events.captureSubmitted.subject: {
        const e = events.captureSubmitted.message.decode(ev.data);
        return acceptCapture(
          deps,
          Number(e.transactionId),
          {
            index: e.signerIndex,
            capture_id: e.captureId,
            attempt: e.attempt,
            video_sha256: e.videoSha256,
            frame_sha256: e.frameSha256,
            // The ceremony's mode of this capture says whether the WebAuthn step was verified for it.
            webauthn_verified: e.verificationMode.endsWith('+webauthn'),
          },
          { ip: e.ip, userAgent: e.userAgent },
        );
      }
      case events.attemptForfeited.subject: {
        const e = events.attemptForfeited.message.decode(ev.data);
        return forfeitAttempt(deps, Number(e.transactionId), {
          index: e.signerIndex,
          capture_id: e.captureId,
          attempt: e.attempt,
          reason: e.reason,
        });
      }
      case events.verdictIssued.subject: {
        const e = events.verdictIssued.message.decode(ev.data);
        return applyVerdict(deps, Number(e.transactionId), {
          index: e.signerIndex,
          capture_id: e.captureId,
          outcome: e.outcome,
          failed_checks: e.failedChecks,
          assurance: e.assurance,
        });
      }
      case events.certificateIssued.subject: {
        const e = events.certificateIssued.message.decode(ev.data);
        return recordCertificate(deps, Number(e.transactionId), e.reference);
      }
      default:
        // The durable reads only STATE_EVENTS; anything else does not move the state.
        return;
    }
  };
}
