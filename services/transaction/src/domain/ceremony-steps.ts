import { releasedBy } from './signers.js';
import {
  deriveStatus,
  isPending,
  type Change,
  type LogEntry,
  type Signer,
  type SignerState,
  type TxState,
} from './transaction.js';

/**
 * The ceremony's steps as state changes (DESIGN §3): a signer's consent, capture and verdict, a
 * forfeited attempt, and the ledger's certificate. Each returns null when it changes nothing (a
 * redelivered or stale event), so applying one twice is harmless.
 */
function withSigner(state: TxState, index: number, patch: Partial<Signer>): Signer[] {
  return state.signers.map((s) => (s.index === index ? { ...s, ...patch } : s));
}

function finish(
  state: TxState,
  signers: Signer[],
  log: LogEntry[],
  signerChanged: Change['signerChanged'],
  certificateIssued = state.certificate_issued,
): Change {
  const status = deriveStatus(signers, certificateIssued);
  const wasAllPassed = state.signers.every((s) => s.state === 'passed');
  const allPassed = signers.every((s) => s.state === 'passed');
  // Routing (issue 18): the next order's links go out once every signer of this one passed.
  const released = releasedBy(state.signers, signers);
  const queued = released.map((i) => ({
    type: 'link_requested',
    at: log[0]?.at ?? new Date(),
    actor: 'system',
    detail: `order ${signers[i]!.order ?? 1} reached: signing link queued for ${signers[i]!.email}`,
  }));
  return {
    signers,
    status,
    log: [...log, ...queued],
    signerChanged,
    nowVerified: allPassed && !wasAllPassed,
    certificateIssued,
    ...(released.length ? { released } : {}),
  };
}

/** The signer consented. Consent again, or a terminal transaction → null (nothing changes). */
export function applyConsent(state: TxState, index: number, at: Date): Change | null {
  const s = state.signers[index];
  if (!s || !isPending(state.status) || s.state !== 'created') return null;
  const signers = withSigner(state, index, { state: 'consent_accepted' });
  return finish(
    state,
    signers,
    [{ type: 'consent_accepted', at, actor: `signer:${index}`, detail: `${s.email} accepted consent` }],
    {
      index,
      from: s.state,
      to: 'consent_accepted',
      attempts_left: s.attempts_left,
    },
  );
}

/** A capture was submitted for analysis; only from consent_accepted (a live challenge). */
export function applyCapture(
  state: TxState,
  ev: {
    index: number;
    capture_id: string;
    attempt: number;
    video_sha256: string;
    frame_sha256: string;
    webauthn_verified?: boolean;
  },
  at: Date,
): Change | null {
  const s = state.signers[ev.index];
  if (!s || !isPending(state.status) || s.state !== 'consent_accepted') return null;
  const signers = withSigner(state, ev.index, {
    state: 'capture_accepted',
    capture_id: ev.capture_id,
    attempt: ev.attempt,
    video_sha256: ev.video_sha256,
    frame_sha256: ev.frame_sha256,
    webauthn_verified: ev.webauthn_verified ?? false,
  });
  return finish(
    state,
    signers,
    [{ type: 'capture_submitted', at, actor: `signer:${ev.index}`, detail: `attempt ${ev.attempt} submitted for analysis` }],
    { index: ev.index, from: s.state, to: 'capture_accepted', attempts_left: s.attempts_left },
  );
}

/**
 * The biometric verdict of one capture. It applies only to the capture under analysis, so a
 * redelivered or stale verdict changes nothing. FAIL with attempts left returns the signer to
 * consent_accepted (a new challenge); without attempts left the signer (and so the transaction) fails.
 * ERROR (not judged: a technical failure) returns the signer to consent_accepted, charging nothing.
 */
export function applyVerdict(
  state: TxState,
  ev: { index: number; capture_id: string; outcome: string; failed_checks: string[]; assurance?: string },
  at: Date,
): Change | null {
  const s = state.signers[ev.index];
  if (!s || !isPending(state.status) || s.state !== 'capture_accepted' || s.capture_id !== ev.capture_id) return null;
  if (ev.outcome === 'PASS') {
    const signers = withSigner(state, ev.index, { state: 'passed', verified_at: at, assurance: ev.assurance || 'recorded' });
    return finish(
      state,
      signers,
      [{ type: 'verdict_passed', at, actor: 'biometrics', detail: `signer ${ev.index} passed verification` }],
      {
        index: ev.index,
        from: s.state,
        to: 'passed',
        attempts_left: s.attempts_left,
      },
    );
  }
  if (ev.outcome === 'ERROR') return unjudged(state, s, at);
  const left = Math.max(0, s.attempts_left - 1);
  const to: SignerState = left > 0 ? 'consent_accepted' : 'failed';
  const checks = ev.failed_checks.length ? ` (${ev.failed_checks.join(', ')})` : '';
  const signers = withSigner(state, ev.index, { state: to, attempts_left: left });
  return finish(
    state,
    signers,
    [
      {
        type: 'verdict_failed',
        at,
        actor: 'biometrics',
        detail: `signer ${ev.index} failed verification${checks}; ${left > 0 ? `${left} attempt(s) left` : 'no attempts left'}`,
      },
    ],
    { index: ev.index, from: s.state, to, attempts_left: left },
  );
}

/**
 * The capture could not be judged for a technical reason (biometrics' ERROR: its analysis kept
 * failing): the ceremony reopens for a new challenge and the signer keeps every attempt.
 */
function unjudged(state: TxState, s: Signer, at: Date): Change {
  const signers = withSigner(state, s.index, { state: 'consent_accepted' });
  return finish(
    state,
    signers,
    [
      {
        type: 'verdict_error',
        at,
        actor: 'biometrics',
        detail: `signer ${s.index}'s capture could not be analysed (technical failure); no attempt used, ${s.attempts_left} attempt(s) left`,
      },
    ],
    { index: s.index, from: s.state, to: 'consent_accepted', attempts_left: s.attempts_left },
  );
}

/**
 * The signer drew more challenges in one attempt than allowed: the attempt is spent as a capture
 * that failed. Applies only while the signer awaits a capture, so a redelivery changes nothing.
 */
export function applyForfeit(
  state: TxState,
  ev: { index: number; capture_id: string; attempt: number; reason: string },
  at: Date,
): Change | null {
  // Applied already: the spent attempt is the signer's last capture.
  if (state.signers[ev.index]?.capture_id === ev.capture_id) return null;
  const captured = applyCapture(state, { ...ev, video_sha256: '', frame_sha256: '' }, at);
  if (!captured) return null;
  const failed = applyVerdict(
    { ...state, signers: captured.signers, status: captured.status },
    { index: ev.index, capture_id: ev.capture_id, outcome: 'FAIL', failed_checks: [ev.reason] },
    at,
  );
  if (!failed) return null;
  const s = state.signers[ev.index]!;
  return finish(
    state,
    failed.signers,
    [
      {
        type: 'attempt_forfeited',
        at,
        actor: `signer:${ev.index}`,
        detail: failed.log[0]!.detail.replace('failed verification', 'spent an attempt'),
      },
    ],
    { index: ev.index, from: s.state, to: failed.signerChanged!.to, attempts_left: failed.signerChanged!.attempts_left },
  );
}

/** The ledger issued the certificate: capture_accepted with every signer passed → ledger_issued. */
export function applyCertificate(state: TxState, reference: string, at: Date): Change | null {
  if (reference !== state.reference || state.status !== 'capture_accepted' || !state.signers.every((s) => s.state === 'passed'))
    return null;
  const change = finish(
    state,
    state.signers,
    [{ type: 'certificate_issued', at, actor: 'ledger', detail: `certificate ${reference} issued` }],
    undefined,
    true,
  );
  return { ...change, nowVerified: false };
}
