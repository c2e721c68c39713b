import { notPending, resendTooSoon } from './errors.js';
import { isReleased } from './signers.js';
import type { Timers } from './lifecycle.js';

/**
 * The transaction state machine of DESIGN §3, as pure functions over plain values: the model and the
 * sender's cancel and resend here, the ceremony's steps in ceremony-steps.ts, the timers and the
 * decline in lifecycle.ts. Every change is applied by usecases/apply-change.ts in one conditional
 * update guarded by the status and version it was computed from.
 */
export const STATUSES = [
  'created',
  'consent_accepted',
  'capture_accepted',
  'ledger_issued',
  'failed',
  'cancelled',
  'declined',
  'expired',
] as const;
export type Status = (typeof STATUSES)[number];
export const PENDING: readonly Status[] = ['created', 'consent_accepted', 'capture_accepted'];
export const isPending = (s: string): boolean => (PENDING as readonly string[]).includes(s);

export const SIGNER_STATES = ['created', 'consent_accepted', 'capture_accepted', 'passed', 'failed', 'declined'] as const;
export type SignerState = (typeof SIGNER_STATES)[number];

export const ATTESTATION_TYPES = ['signature', 'approval', 'review', 'consent'] as const;
export type AttestationType = (typeof ATTESTATION_TYPES)[number];
export const MAX_ADDITIONAL_SIGNERS = 4;

export type VerificationMode = 'biometric' | 'liveness';

export type Signer = {
  index: number;
  name: string;
  email: string;
  token: string;
  state: SignerState;
  verification_mode: VerificationMode;
  attempts_left: number;
  /** The capture under analysis (or the last one analysed). */
  capture_id: string;
  attempt: number;
  video_sha256: string;
  frame_sha256: string;
  verified_at: Date | null;
  /** What the passing capture's timing proved: live or recorded (absent before it existed). */
  assurance?: string;
  /** signer or approver (absent on records written before roles: signer). */
  role?: 'signer' | 'approver';
  /** Routing order: 1 first, equal orders in parallel (absent: 1). */
  order?: number;
  /** This signer's reference photo in the references bucket (absent: the record's, for the first signer of older records). */
  reference_key?: string;
  reference_sha256?: string;
  /** The sender asked for a WebAuthn confirmation too. */
  webauthn?: boolean;
  /** The lowest assurance accepted from this signer's capture (absent on records before it existed: recorded). */
  required_assurance?: string;
  /** The language the sender chose for this signer's page and mails (domain/locale.ts); absent: not chosen. */
  locale?: string;
  /** The capture under analysis (or the passing one) came with a verified WebAuthn step. */
  webauthn_verified?: boolean;
  /** Why the signer declined (empty when they gave no reason; absent unless declined). */
  decline_reason?: string;
  /** The values of this signer's fields and the signature/initials they adopted (absent: none submitted). */
  fields?: SignerFieldValues;
};

/** A signature or initials as adopted: a drawn image (a PNG re-encoded by the service) or typed text. */
export type Mark =
  { kind: 'drawn'; png: string; sha256: string; width: number; height: number } | { kind: 'typed'; text: string };
/** What a signer submitted for their fields (domain/field-values.ts), with the service's own values. */
export type SignerFieldValues = {
  values: Record<string, string | boolean>;
  signature?: Mark;
  initials?: Mark;
  submitted_at: Date;
};

/** A party who only receives the result (no link, no ceremony, not certified). */
export type Viewer = { name: string; email: string; order: number; locale?: string };

export type LogEntry = { type: string; at: Date; actor: string; detail: string };

/** A signer as a creation writes them: checked against their own reference photo (biometric) or by liveness alone. */
export function newSigner(
  index: number,
  name: string,
  email: string,
  token: string,
  attempts: number,
  opts: {
    mode: VerificationMode;
    role?: 'signer' | 'approver';
    order?: number;
    reference?: { key: string; sha256: string };
    webauthn?: boolean;
    required_assurance?: string;
    locale?: string;
  },
): Signer {
  return {
    index,
    name,
    email,
    token,
    state: 'created',
    verification_mode: opts.mode,
    role: opts.role ?? 'signer',
    order: opts.order ?? 1,
    webauthn: opts.webauthn ?? false,
    ...(opts.required_assurance ? { required_assurance: opts.required_assurance } : {}),
    ...(opts.locale ? { locale: opts.locale } : {}),
    ...(opts.reference ? { reference_key: opts.reference.key, reference_sha256: opts.reference.sha256 } : {}),
    attempts_left: attempts,
    capture_id: '',
    attempt: 0,
    video_sha256: '',
    frame_sha256: '',
    verified_at: null,
  };
}

/**
 * A transaction's status follows from its signers (DESIGN §3); `cancelled` is set only by the sender,
 * `expired` only by the expiry timer (domain/lifecycle.ts).
 */
export function deriveStatus(signers: Pick<Signer, 'state'>[], certificateIssued: boolean): Status {
  if (signers.some((s) => s.state === 'declined')) return 'declined';
  if (signers.some((s) => s.state === 'failed')) return 'failed';
  const allPassed = signers.every((s) => s.state === 'passed');
  if (allPassed && certificateIssued) return 'ledger_issued';
  if (signers.every((s) => s.state === 'capture_accepted' || s.state === 'passed')) return 'capture_accepted';
  if (signers.some((s) => s.state !== 'created')) return 'consent_accepted';
  return 'created';
}

export type TxState = {
  status: Status;
  signers: Signer[];
  certificate_issued: boolean;
  reference: string;
  /** When the sender last had the links re-sent (resend is limited to once a minute). */
  last_resent_at?: Date | null;
  /** The lifecycle timers (domain/lifecycle.ts); absent on records written before them. */
  timers?: Timers;
};

/** The shortest time between two resends of one transaction's links. */
export const RESEND_INTERVAL_MS = 60_000;

/** What a trigger changes: the new signers/status, log entries, and whether every signer has now passed. */
export type Change = {
  signers: Signer[];
  status: Status;
  log: LogEntry[];
  signerChanged?: { index: number; from: SignerState; to: SignerState; attempts_left: number };
  nowVerified: boolean;
  certificateIssued?: boolean;
  /** Who the status change is logged as (the system unless the sender caused it). */
  statusActor?: string;
  /**
   * The links are to be sent again: when, and the signers to remind (requested in the same write);
   * `automatic` for the reminder schedule (it does not count against the sender's resend limit).
   */
  reminder?: { at: Date; signerIndexes: number[]; automatic?: boolean };
  /** New timer values written with the change (domain/lifecycle.ts). */
  timers?: Partial<Timers>;
  /** A signer declined (for the signer.declined event). */
  declined?: { index: number; reason: string };
  /** Signers whose order this change reached (the one before all passed): their links are requested in the same write. */
  released?: number[];
};

/** The sender cancels: pending only, else TRANSACTION_NOT_PENDING. The links stop working with the status. */
export function applyCancel(state: TxState, at: Date): Change {
  if (!isPending(state.status)) throw notPending('cancel', state.status);
  return {
    signers: state.signers,
    status: 'cancelled',
    log: [{ type: 'cancelled', at, actor: 'sender', detail: 'cancelled by the sender; signing links no longer work' }],
    nowVerified: false,
    statusActor: 'sender',
  };
}

/**
 * The sender has the signing link sent again to every signer still to sign: pending only (else
 * TRANSACTION_NOT_PENDING), once a minute (else rate-limited, with the seconds left). The status stays.
 */
export function applyResend(state: TxState, at: Date): Change {
  if (!isPending(state.status)) throw notPending('resend', state.status);
  const now = at.getTime();
  const last = state.last_resent_at ? new Date(state.last_resent_at).getTime() : 0;
  if (now - last < RESEND_INTERVAL_MS) throw resendTooSoon(Math.ceil((RESEND_INTERVAL_MS - (now - last)) / 1000));
  // Only signers whose order has been reached have a link to be reminded of (issue 18 routing).
  const to = state.signers.filter((s) => s.state !== 'passed' && s.state !== 'failed' && isReleased(state.signers, s.index));
  return {
    signers: state.signers,
    status: state.status,
    log: [
      {
        type: 'link_resent',
        at,
        actor: 'sender',
        detail: `signing link to be sent again to ${to.map((s) => s.email).join(', ')}`,
      },
    ],
    nowVerified: false,
    reminder: { at, signerIndexes: to.map((s) => s.index) },
  };
}
