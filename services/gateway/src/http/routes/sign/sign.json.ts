import type { ceremonyV1 } from '@signet/proto';

/** The signing session as the page reads it. */
export function summaryJson(s: ceremonyV1.CeremonySummary) {
  return {
    signer_name: s.signerName,
    issuer_name: s.issuerName,
    document_name: s.documentName,
    document_sha256_prefix: s.documentSha256Prefix,
    attestation_type: s.attestationType,
    attestation_text: s.attestationText,
    step: s.step,
    attempts_left: s.attemptsLeft,
    attempt: s.attempt,
    webauthn_offered: s.webauthnOffered,
    webauthn_done: s.webauthnDone,
    webauthn_required: s.webauthnRequired,
    required_assurance: s.requiredAssurance || 'recorded',
    verification_mode: s.verificationMode,
    outcome: s.outcome || null,
    consent_text_version: s.consentTextVersion,
    consent_text: s.consentText,
    draws_left: s.drawsLeft,
    redo: s.redo,
  };
}

/** A capture accepted (upload or live). */
export function receiptJson(receipt: ceremonyV1.CaptureReceipt) {
  return {
    capture_id: receipt.captureId,
    attempt: receipt.attempt,
    status: receipt.status,
    video_sha256: receipt.videoSha256,
    frame_sha256: receipt.frameSha256,
    duration_seconds: receipt.durationSeconds,
    assurance: receipt.assurance,
  };
}
