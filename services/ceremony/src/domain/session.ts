import type { ChallengeRecord } from './challenge.js';
import type { Assurance } from './live.js';

/** One signer's ceremony (`<transaction id>:<signer index>`), as the store keeps it. */
export type Session = {
  _id: string;
  transaction_id: number;
  signer_index: number;
  signer_email: string;
  created_at: Date;
  consent: Consent | null;
  challenge: ChallengeRecord | null;
  attempt: number;
  /** New challenges drawn in the current attempt. */
  draws: number;
  captures: CaptureRecord[];
  /** Captures refused before analysis for proving less than the sender requires (absent: none). */
  refusals?: CaptureRefusal[];
  webauthn: WebauthnRecord | null;
  forensic_batches: number;
  /** Set when the transaction asks for the capture media to be erased; erased_at once they are. */
  erasure?: Erasure | null;
  erased_at?: Date | null;
};

export type Consent = {
  text_version: string;
  /** The retention the accepted text stated (absent on consents recorded before it was stated). */
  retention_days?: number;
  at: Date;
  ip: string;
  user_agent: string;
};

/** Why a session's capture media are erased (the transaction's request): its retention ended, or the sender asked. */
export type Erasure = { reason: string; requested_at: Date };

export type CaptureRecord = {
  capture_id: string;
  attempt: number;
  nonce: string;
  /** The challenge it answered (empty on a forfeited attempt); the timeline and mode when it had them. */
  challenge: Omit<ChallengeRecord, 'actions' | 'live_started_at'> & { actions: string[] };
  /** What the capture proves about "now", and for a live capture the timing evidence. */
  assurance?: Assurance;
  live?: { shown_ms: number[]; arrival_ms: number[]; detail: string } | null;
  /** Set on the record of an attempt spent by drawing too many challenges (no media). */
  forfeited?: boolean;
  /** After a FAIL verdict: the failed checks (no scores), for the signer's "what to redo". */
  failed_checks?: string[];
  video_key: string;
  frame_key: string;
  video_sha256: string;
  frame_sha256: string;
  video_bytes: number;
  frame_bytes: number;
  video_type: string;
  frame_type: string;
  duration_seconds: number;
  verification_mode: string;
  submitted_at: Date;
  ip: string;
  user_agent: string;
  /** PASS or FAIL once the biometrics verdict arrives; null while in review. */
  outcome: string | null;
};

/** A capture refused before analysis (issue 30): its challenge was used up; no media were stored. */
export type CaptureRefusal = {
  nonce: string;
  attempt: number;
  required: string;
  /** What the capture proved. */
  offered: string;
  /** The live timing's reason, for the record (never shown to the signer). */
  detail: string;
  at: Date;
};

export type WebauthnRecord = { kind: string; credential_id: string; nonce: string; challenge: string; verified_at: Date };

export const sessionId = (transactionId: number, signerIndex: number) => `${transactionId}:${signerIndex}`;

/** The client's address and browser as recorded with consent, captures and forensic batches (bounded). */
export const clientOf = (ip: string, userAgent: string) => ({ ip: ip.slice(0, 64), user_agent: userAgent.slice(0, 512) });
