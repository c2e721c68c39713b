import { events, eventsV1 } from '@signet/proto';
import type { DeliveredEvent, Logger, Metrics } from '@signet/kit';
import { maskEmail, type Certificate } from '../domain/certificate.js';
import type { LedgerLog } from '../log/ledger-log.js';
import { certificateMetrics } from '../metrics.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import { issueCertificate, type IssueCertificateDeps } from '../usecases/issue-certificate.js';

/**
 * The event as a certificate (the document hash lower-cased; e-mails masked). Commitments arrive
 * already salted and hashed by the transaction service.
 */
export function certificateFromEvent(ev: eventsV1.TransactionVerified): Certificate {
  const verifiedAt =
    ev.signers
      .map((s) => s.verifiedAt)
      .sort()
      .at(-1) ?? ev.occurredAt;
  return {
    version: 1,
    reference: ev.reference,
    document_sha256: ev.documentSha256.toLowerCase(),
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
 * `signet.transaction.verified` (durable `ledger-transaction-verified`) → issueCertificate. `metrics`
 * is the registry the certificate instruments are declared on (metrics.ts), once per consumer.
 */
export function verifiedConsumer(deps: {
  certs: CertificateRepository;
  log: Pick<LedgerLog, 'claim'>;
  metrics: Metrics;
  logger: Logger;
  onIssued?: () => void;
  signedPdfs?: IssueCertificateDeps['signedPdfs'];
}) {
  const issueDeps = { ...deps, metrics: certificateMetrics(deps.metrics) };
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.transactionVerified.message.decode(delivered.data);
    await issueCertificate(issueDeps, {
      eventId: delivered.eventId,
      transactionId: ev.transactionId,
      certificate: certificateFromEvent(ev),
      signedPdf: {
        documentKey: ev.documentKey ?? '',
        documentName: ev.documentName ?? '',
        signerEmails: ev.signers.map((s) => s.email),
      },
    });
  };
}
