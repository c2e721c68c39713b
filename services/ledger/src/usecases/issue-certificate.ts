import type { Logger } from '@signet/kit';
import { certificateLeaf } from '@signet/verify';
import { isIssuable, type Certificate } from '../domain/certificate.js';
import { certificateIssuedEvent } from '../events/certificate-issued.publisher.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { CertificateMetrics } from '../metrics.js';
import type { CertificateRepository } from '../store/certificate.repository.js';

export type IssueCertificateDeps = {
  certs: Pick<CertificateRepository, 'findByReference' | 'insertOnce'>;
  log: Pick<LedgerLog, 'claim'>;
  metrics: CertificateMetrics;
  logger: Pick<Logger, 'info' | 'error'>;
  /** After a certificate exists (new or found): wakes the sealing job and the outbox relay. */
  onIssued?: () => void;
};

export type IssueResult = 'issued' | 'duplicate' | 'rejected';

/**
 * Issues the certificate of a verified transaction: claims its leaf in the log (one insert, unique
 * reference), then inserts the certificate with its leaf index, seal and certificate.issued event
 * (one insert, keyed by the reference). A redelivery after a crash at any point issues nothing twice:
 * the certificate exists (duplicate), or its leaf does and is reused — with the leaf's own bytes, so
 * the record always matches what the log holds. The sealing pass then checkpoints the leaf.
 */
export async function issueCertificate(
  deps: IssueCertificateDeps,
  input: { eventId: string; transactionId: number; certificate: Certificate },
): Promise<IssueResult> {
  const { transactionId } = input;
  const reference = input.certificate.reference;
  const issued = deps.metrics.certificatesIssued;
  if (!isIssuable(input.certificate)) {
    issued.inc({ result: 'rejected' });
    deps.logger.error(
      { transaction_id: transactionId, event_id: input.eventId },
      'transaction.verified event is malformed; no certificate',
    );
    return 'rejected';
  }
  if (await deps.certs.findByReference(reference)) {
    issued.inc({ result: 'duplicate' });
    deps.logger.info({ transaction_id: transactionId, duplicate: true }, 'certificate already issued');
    deps.onIssued?.();
    return 'duplicate';
  }
  const leaf = await deps.log.claim(reference, certificateLeaf(input.certificate));
  const certificate = JSON.parse(leaf.leaf!) as Certificate;
  const inserted = await deps.certs.insertOnce(
    {
      reference,
      transaction_id: transactionId,
      document_sha256: certificate.document_sha256,
      certificate,
      ledger_seal: leaf.seal,
      leaf_index: leaf.index,
      issued_at: new Date(),
      source_event_id: input.eventId,
    },
    [certificateIssuedEvent({ transactionId, reference, leafIndex: leaf.index, ledgerSeal: leaf.seal })],
  );
  issued.inc({ result: inserted ? 'issued' : 'duplicate' });
  deps.logger.info({ transaction_id: transactionId, leaf_index: leaf.index, duplicate: !inserted }, 'certificate issued');
  deps.onIssued?.();
  return inserted ? 'issued' : 'duplicate';
}
