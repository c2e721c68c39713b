import type { Logger } from '@signet/kit';
import { certificateLeaf, type CommitmentOpenings } from '@signet/verify';
import { certificateAssurance, isIssuable, type Certificate } from '../domain/certificate.js';
import { certificateIssuedEvent } from '../events/certificate-issued.publisher.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { CertificateMetrics } from '../metrics.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import type { SignedPdfRepository } from '../store/signed-pdf.repository.js';
import type { SignerTrail } from '../pdf/audit-trail.js';

export type IssueCertificateDeps = {
  certs: Pick<CertificateRepository, 'findByReference' | 'insertOnce'>;
  log: Pick<LedgerLog, 'claim'>;
  metrics: CertificateMetrics;
  logger: Pick<Logger, 'info' | 'error'>;
  /** After a certificate exists (new or found): wakes the sealing job and the outbox relay. */
  onIssued?: () => void;
  /** When this ledger seals signed PDFs: records the one to seal (the sealing job takes it from there). */
  signedPdfs?: Pick<SignedPdfRepository, 'enqueue'> | null;
  now?: () => Date;
};

/** What the signed PDF needs beyond the certificate: the document (by key in the documents bucket) and full e-mails. */
export type SignedPdfSource = {
  documentKey: string;
  documentName: string;
  signerEmails: string[];
  /** What each signer's ceremony recorded, in the certificate's order (the audit trail's rows). */
  trails?: SignerTrail[];
  /** The signers' field values to draw into the document (issue 33; JSON, pdf/fields-stamp.ts); empty: none. */
  fieldsJson?: string;
};

export type IssueResult = 'issued' | 'duplicate' | 'rejected';

/**
 * Issues the certificate of a verified transaction: claims its leaf in the log (one insert, unique
 * reference; batched with other claims waiting), then inserts the certificate with its leaf index, seal and certificate.issued event
 * (one insert, keyed by the reference). A redelivery after a crash at any point issues nothing twice:
 * the certificate exists (duplicate), or its leaf does and is reused — with the leaf's own bytes, so
 * the record always matches what the log holds. The sealing pass then checkpoints the leaf.
 */
export async function issueCertificate(
  deps: IssueCertificateDeps,
  input: {
    eventId: string;
    transactionId: number;
    certificate: Certificate;
    signedPdf?: SignedPdfSource;
    /** Kept beside the certificate (not in the leaf) for the owner's evidence. */
    openings?: CommitmentOpenings;
  },
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
  // No lookup first: the claim returns the leaf a reference already has, and the certificate's own
  // unique key makes a second insert a duplicate.
  const leaf = await deps.log.claim(reference, certificateLeaf(input.certificate));
  if (leaf.leaf === undefined) {
    // A leaf without its bytes (stored before they were kept): only a certificate issued from it can exist.
    if (!(await deps.certs.findByReference(reference))) throw new Error(`leaf ${leaf.index} has no certificate bytes`);
    return duplicate(deps, input);
  }
  const certificate = JSON.parse(leaf.leaf) as Certificate;
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
      ...(input.openings ? { commitment_openings: input.openings } : {}),
    },
    [certificateIssuedEvent({ transactionId, reference, leafIndex: leaf.index, ledgerSeal: leaf.seal })],
  );
  if (!inserted) return duplicate(deps, input);
  issued.inc({ result: 'issued' });
  deps.metrics.certificatesByAssurance.inc({ assurance: certificateAssurance(certificate) });
  deps.logger.info({ transaction_id: transactionId, leaf_index: leaf.index, duplicate: false }, 'certificate issued');
  await enqueueSignedPdf(deps, input);
  deps.onIssued?.();
  return 'issued';
}

/** The certificate exists already (a redelivery, or a racing delivery won). */
async function duplicate(
  deps: IssueCertificateDeps,
  input: { transactionId: number; certificate: Certificate; signedPdf?: SignedPdfSource },
): Promise<IssueResult> {
  deps.metrics.certificatesIssued.inc({ result: 'duplicate' });
  deps.logger.info({ transaction_id: input.transactionId, duplicate: true }, 'certificate already issued');
  await enqueueSignedPdf(deps, input); // a crash after the certificate and before this is repaired here
  deps.onIssued?.();
  return 'duplicate';
}

async function enqueueSignedPdf(
  deps: Pick<IssueCertificateDeps, 'signedPdfs' | 'now'>,
  input: { transactionId: number; certificate: Certificate; signedPdf?: SignedPdfSource },
): Promise<void> {
  if (!deps.signedPdfs || !input.signedPdf?.documentKey) return;
  await deps.signedPdfs.enqueue({
    reference: input.certificate.reference,
    transaction_id: input.transactionId,
    document_key: input.signedPdf.documentKey,
    document_name: input.signedPdf.documentName,
    signer_emails: input.signedPdf.signerEmails,
    trails: input.signedPdf.trails ?? [],
    ...(input.signedPdf.fieldsJson ? { fields_json: input.signedPdf.fieldsJson } : {}),
    next_attempt_at: (deps.now ?? (() => new Date()))(),
  });
}
