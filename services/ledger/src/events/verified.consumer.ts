import { eventsV1 } from '@signet/proto';
import type { DeliveredEvent, Logger, Metrics } from '@signet/kit';
import { maskEmail, type Certificate } from '../domain/certificate.js';
import { REFERENCE_PATTERN } from '../domain/reference.js';
import type { CertificateRepository } from '../store/certificate.repository.js';

export const VERIFIED_SUBJECT = 'signet.transaction.verified';

/** Builds the certificate from the event. Commitments arrive already salted and hashed by the transaction service. */
export function certificateFromEvent(ev: eventsV1.TransactionVerified): Certificate {
  const verifiedAt =
    ev.signers
      .map((s) => s.verifiedAt)
      .sort()
      .at(-1) ?? ev.occurredAt;
  return {
    version: 1,
    reference: ev.reference,
    document_sha256: ev.documentSha256,
    issuer_name: ev.issuerName,
    attestation_type: ev.attestationType,
    signers: ev.signers.map((s) => ({
      name: s.name,
      email_masked: maskEmail(s.email),
      verification_mode: s.verificationMode,
      verified_at: s.verifiedAt,
      video_commitment: s.videoSha256,
      frame_commitment: s.frameSha256,
      reference_commitment: s.referenceSha256,
    })),
    verified_at: verifiedAt,
  };
}

/**
 * Issues the certificate for a verified transaction. The write is the whole effect and is keyed by
 * the reference (unique index), so a redelivery after a crash before the ack issues nothing twice.
 * The certificate is inserted unsealed (leaf_index null); the log's sealing pass appends it, seals it
 * and puts signet.ledger.certificate.issued on its outbox (see log/ledger-log.ts), so a crash between
 * the insert and the append only delays the seal.
 */
export function verifiedConsumer(deps: {
  certs: CertificateRepository;
  metrics: Metrics;
  logger: Logger;
  onIssued?: () => void;
}) {
  const issued = deps.metrics.counter('signet_ledger_certificates_issued_total', 'Certificates issued', ['result']);
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = eventsV1.TransactionVerified.decode(delivered.data);
    ev.documentSha256 = ev.documentSha256.toLowerCase();
    if (!REFERENCE_PATTERN.test(ev.reference) || !/^[0-9a-f]{64}$/.test(ev.documentSha256) || ev.signers.length === 0) {
      // A malformed fact cannot become a certificate; redelivering it would not help either.
      issued.inc({ result: 'rejected' });
      deps.logger.error({ transaction_id: ev.transactionId, event_id: delivered.eventId }, 'transaction.verified event is malformed; no certificate');
      return;
    }
    const certificate = certificateFromEvent(ev);
    const inserted = await deps.certs.insertOnce(
      {
        reference: ev.reference,
        transaction_id: ev.transactionId,
        document_sha256: ev.documentSha256,
        certificate,
        ledger_seal: '',
        leaf_index: null,
        issued_at: new Date(),
        source_event_id: delivered.eventId,
      },
      [],
    );
    issued.inc({ result: inserted ? 'issued' : 'duplicate' });
    deps.logger.info({ transaction_id: ev.transactionId, duplicate: !inserted }, 'certificate issued');
    // Seal now; a duplicate may be one whose append a crash interrupted, so kick for it too.
    deps.onIssued?.();
  };
}
