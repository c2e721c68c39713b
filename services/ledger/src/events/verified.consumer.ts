import { events, eventsV1 } from '@signet/proto';
import { achievedAssurance, assuranceMeaning, type DeliveredEvent, type Logger, type Metrics } from '@signet/kit';
import type { CommitmentOpenings } from '@signet/verify';
import { maskEmail, type Certificate } from '../domain/certificate.js';
import type { LedgerLog } from '../log/ledger-log.js';
import type { SignerTrail } from '../pdf/audit-trail.js';
import { certificateMetrics } from '../metrics.js';
import type { CertificateRepository } from '../store/certificate.repository.js';
import { issueCertificate, type IssueCertificateDeps } from '../usecases/issue-certificate.js';

/**
 * A signer's achieved level (a live capture confirmed by WebAuthn is live+webauthn, also from an event
 * of before the transaction service named it) and, sealed beside it, the sentence of what it proves.
 */
function sealedAssurance(s: eventsV1.CertifiedSigner): { assurance: string; assurance_meaning: string } {
  const level = achievedAssurance(s.assurance, s.checks.includes('webauthn'));
  return { assurance: level, assurance_meaning: assuranceMeaning(level) };
}

/**
 * The event as a certificate of version 2 (docs/certificate-format.md): the document hash lower-cased,
 * e-mails masked, per signer the consent and attestation recorded by the ceremony ('' where it was not).
 * Commitments arrive already salted and hashed by the transaction service.
 */
export function certificateFromEvent(ev: eventsV1.TransactionVerified): Certificate {
  const verifiedAt =
    ev.signers
      .map((s) => s.verifiedAt)
      .sort()
      .at(-1) ?? ev.occurredAt;
  return {
    version: 2,
    reference: ev.reference,
    document_sha256: ev.documentSha256.toLowerCase(),
    document_name: ev.documentName ?? '',
    issuer_name: ev.issuerName,
    attestation_type: ev.attestationType,
    signers: ev.signers.map((s) => ({
      name: s.name,
      email_masked: maskEmail(s.email),
      verification_mode: s.verificationMode,
      ...sealedAssurance(s),
      verified_at: s.verifiedAt,
      video_commitment: s.videoSha256,
      frame_commitment: s.frameSha256,
      reference_commitment: s.referenceSha256,
      role: s.role || 'signer',
      order: s.order || 1,
      checks: s.checks,
      webauthn: s.checks.includes('webauthn'),
      consent_text_version: s.trail?.consentTextVersion ?? '',
      consented_at: s.trail?.consentedAt ?? '',
      attestation_text_sha256: s.trail?.attestationTextSha256 ?? '',
    })),
    verified_at: verifiedAt,
  };
}

/**
 * The salt and media hashes the event's commitments are made of, for the owner's evidence; none when
 * the event predates them or a signer's hashes are missing (an opening that cannot open is not kept).
 */
export function openingsFromEvent(ev: eventsV1.TransactionVerified): CommitmentOpenings | undefined {
  if (!ev.commitmentSalt || ev.signers.some((s) => !s.media)) return undefined;
  return {
    salt: ev.commitmentSalt,
    signers: ev.signers.map((s) => ({
      video_sha256: s.media!.videoSha256.toLowerCase(),
      frame_sha256: s.media!.frameSha256.toLowerCase(),
      reference_sha256: s.media!.referenceSha256.toLowerCase(),
    })),
  };
}

/** A signer's recorded ceremony as the audit trail shows it (empty fields: not recorded). */
export function trailFromEvent(t: eventsV1.SignerTrail | undefined): SignerTrail {
  return {
    link_sent_at: t?.linkSentAt ?? '',
    opened_at: t?.openedAt ?? '',
    consented_at: t?.consentedAt ?? '',
    consent_text_version: t?.consentTextVersion ?? '',
    consent_ip: t?.consentIp ?? '',
    consent_user_agent: t?.consentUserAgent ?? '',
    captured_at: t?.capturedAt ?? '',
    capture_ip: t?.captureIp ?? '',
    capture_user_agent: t?.captureUserAgent ?? '',
    attempt: t?.attempt ?? 0,
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
  /** The filled document's SHA-256 (usecases/filled-document-hash.ts), where the ledger reads documents; unset: none. */
  filledHash?: (documentKey: string, fieldsJson: string) => Promise<string | undefined>;
  /** The test log (test mode): a test transaction's certificate is sealed there, never in the live log; null: none configured. */
  testLog?: {
    certs: CertificateRepository;
    log: Pick<LedgerLog, 'claim'>;
    onIssued?: () => void;
    /** Test mode's signed PDFs (TEST seal); null: the test log makes none. */
    signedPdfs?: IssueCertificateDeps['signedPdfs'];
  } | null;
}) {
  const issueDeps = { ...deps, metrics: certificateMetrics(deps.metrics) };
  const testDeps = deps.testLog ? { ...issueDeps, ...deps.testLog, signedPdfs: deps.testLog.signedPdfs ?? null } : null;
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.transactionVerified.message.decode(delivered.data);
    if (ev.test && !testDeps) {
      issueDeps.metrics.certificatesIssued.inc({ result: 'rejected' });
      deps.logger.error(
        { transaction_id: ev.transactionId },
        'test-mode transaction verified but no test log is configured; no certificate',
      );
      return;
    }
    const certificate = certificateFromEvent(ev);
    // Issue 33: the certificate binds the document as filled (the values each signer submitted) too.
    if (ev.fieldsJson && ev.documentKey && deps.filledHash) {
      const filled = await deps.filledHash(ev.documentKey, ev.fieldsJson);
      if (filled) certificate.filled_document_sha256 = filled;
    }
    await issueCertificate(ev.test ? testDeps! : issueDeps, {
      eventId: delivered.eventId,
      transactionId: ev.transactionId,
      certificate,
      openings: openingsFromEvent(ev),
      signedPdf: {
        documentKey: ev.documentKey ?? '',
        documentName: ev.documentName ?? '',
        signerEmails: ev.signers.map((s) => s.email),
        trails: ev.signers.map((s) => trailFromEvent(s.trail)),
        fieldsJson: ev.fieldsJson,
      },
    });
  };
}
