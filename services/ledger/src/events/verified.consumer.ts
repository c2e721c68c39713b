import { eventsV1 } from '@signet/proto';
import { outboxEvent, type DeliveredEvent, type Logger, type Metrics } from '@signet/kit';
import { certificateLeaf } from '@signet/verify';
import { maskEmail, type Certificate } from '../domain/certificate.js';
import { REFERENCE_PATTERN } from '../domain/reference.js';
import { ISSUED_SUBJECT, type LedgerLog } from '../log/ledger-log.js';
import type { CertificateRepository } from '../store/certificate.repository.js';

export const VERIFIED_SUBJECT = 'signet.transaction.verified';
export { ISSUED_SUBJECT };

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
      assurance: s.assurance || 'recorded',
      verified_at: s.verifiedAt,
      video_commitment: s.videoSha256,
      frame_commitment: s.frameSha256,
      reference_commitment: s.referenceSha256,
    })),
    verified_at: verifiedAt,
  };
}

/**
 * Issues the certificate for a verified transaction: claims its leaf in the log (one insert, unique
 * reference), then inserts the certificate with its leaf index, seal and certificate.issued event
 * (one insert, keyed by the reference). A redelivery after a crash at any point issues nothing twice:
 * the certificate exists (duplicate), or its leaf does and is reused — with the leaf's own bytes, so
 * the record always matches what the log holds. The sealing pass then checkpoints the leaf.
 */
export function verifiedConsumer(deps: {
  certs: CertificateRepository;
  log: Pick<LedgerLog, 'claim'>;
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
      deps.logger.error(
        { transaction_id: ev.transactionId, event_id: delivered.eventId },
        'transaction.verified event is malformed; no certificate',
      );
      return;
    }
    if (await deps.certs.findByReference(ev.reference)) {
      issued.inc({ result: 'duplicate' });
      deps.logger.info({ transaction_id: ev.transactionId, duplicate: true }, 'certificate already issued');
      deps.onIssued?.();
      return;
    }
    const leaf = await deps.log.claim(ev.reference, certificateLeaf(certificateFromEvent(ev)));
    const certificate = JSON.parse(leaf.leaf!) as Certificate;
    const inserted = await deps.certs.insertOnce(
      {
        reference: ev.reference,
        transaction_id: ev.transactionId,
        document_sha256: certificate.document_sha256,
        certificate,
        ledger_seal: leaf.seal,
        leaf_index: leaf.index,
        issued_at: new Date(),
        source_event_id: delivered.eventId,
      },
      [
        outboxEvent(ISSUED_SUBJECT, (meta) =>
          eventsV1.CertificateIssued.encode({
            eventId: meta.event_id,
            occurredAt: meta.occurred_at,
            transactionId: ev.transactionId,
            reference: ev.reference,
            leafIndex: leaf.index,
            ledgerSeal: leaf.seal,
          }).finish(),
        ),
      ],
    );
    issued.inc({ result: inserted ? 'issued' : 'duplicate' });
    deps.logger.info({ transaction_id: ev.transactionId, leaf_index: leaf.index, duplicate: !inserted }, 'certificate issued');
    deps.onIssued?.();
  };
}
