import { certificateAssuranceOf, certifiedAssurance, type AssuranceLevel } from '@signet/kit';
import { REFERENCE_PATTERN } from './reference.js';

/** The certificate as the ledger stores and seals it. Never face images or descriptors: only commitments. */
export type CertificateSigner = {
  name: string;
  email_masked: string;
  verification_mode: string;
  /**
   * The achieved level (@signet/kit assurance.ts): recorded, live, live+webauthn, or test for a test-mode
   * completion. Certificates sealed before issue 30 say live (with `webauthn: true` for live+webauthn).
   */
  assurance: string;
  /** Since issue 30: the sentence saying what the level proves, sealed with it. */
  assurance_meaning?: string;
  verified_at: string;
  video_commitment: string;
  frame_commitment: string;
  reference_commitment: string;
  /** signer or approver, the routing order and the checks passed (liveness, face_match, webauthn); absent on certificates before issue 18. */
  role?: string;
  order?: number;
  checks?: string[];
  // Version 2 (issue 17 item 6); '' where the ceremony did not record it.
  /** Whether the signer also confirmed with a WebAuthn credential (the `webauthn` check). */
  webauthn?: boolean;
  /** The consent text's version and when the signer accepted it (RFC 3339). */
  consent_text_version?: string;
  consented_at?: string;
  /** SHA-256 (hex) of the attestation sentence the signer agreed to, as the signing page showed it (UTF-8). */
  attestation_text_sha256?: string;
};

/**
 * The sealed certificate; its RFC 8785 canonical JSON is the ledger leaf (docs/certificate-format.md).
 * Version 1 before issue 17 item 6; version 2 adds the document name and, per signer, the consent,
 * the attestation text hash and WebAuthn. Both stay in the log and verify alike.
 */
export type Certificate = {
  version: 1 | 2;
  reference: string;
  document_sha256: string;
  /** Version 2: the document's name as the sender gave it. */
  document_name?: string;
  /**
   * SHA-256 of the filled document (issue 33): revision 1 (`document_sha256`) with the signers' field
   * values stamped as the incremental update after it — the signed PDF's first two revisions. Absent
   * when the transaction had no fields.
   */
  filled_document_sha256?: string;
  issuer_name: string;
  attestation_type: string;
  signers: CertificateSigner[];
  verified_at: string;
};

/** a.b@example.com → a***@example.com: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** The certificate's overall verification mode: the primary signer's, which the spec's result carries. */
export function certificateMode(cert: Certificate): string {
  return cert.signers[0]?.verification_mode ?? 'biometric';
}

/**
 * Whether a verified transaction can become a certificate: a well-formed reference, a SHA-256 (lower-case
 * hex) and at least one signer. A malformed fact cannot; redelivering it would not help either.
 */
export function isIssuable(cert: Certificate): boolean {
  return REFERENCE_PATTERN.test(cert.reference) && /^[0-9a-f]{64}$/.test(cert.document_sha256) && cert.signers.length > 0;
}

/** A signer's achieved level, also for certificates sealed before the level named WebAuthn (live + webauthn). */
export const signerAssurance = (s: CertificateSigner): AssuranceLevel => certifiedAssurance(s).assurance;

/** What a signer's level proves: the sentence sealed with it, or for older certificates today's wording of it. */
export const signerAssuranceMeaning = (s: CertificateSigner): string => certifiedAssurance(s).assurance_meaning;

/** What the certificate proves as a whole: its weakest signer's level (a relying party relies on every signature). */
export const certificateAssurance = (cert: Pick<Certificate, 'signers'>): AssuranceLevel =>
  certificateAssuranceOf(cert.signers).assurance;
