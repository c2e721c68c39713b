/**
 * In-memory stand-ins for the ceremony use cases' dependencies (unit tests, no infrastructure).
 * They keep the conditional-update semantics of the real repositories (store/session.repository.ts):
 * a write guarded by an attempt, a draw count, a nonce or an unset field applies only while the
 * session still matches, and records what it wrote so a test can check that a refusal wrote nothing.
 */
import type { OutboxEntry } from '@signet/kit';
import type { ChallengeRecord } from '../src/domain/challenge.js';
import type { CaptureRecord, CaptureRefusal, Consent, Session, WebauthnRecord } from '../src/domain/session.js';
import type { SigningContext } from '../src/domain/signer.js';
import type { CeremonyMetrics } from '../src/metrics.js';

export function fakeClock(start = Date.parse('2026-01-02T10:00:00Z')) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** Metrics that remember what was counted: `counted('captures', {result: 'stale_nonce'})`. */
export function fakeMetrics() {
  const seen: { name: string; labels: Record<string, string>; value: number }[] = [];
  const instrument = (name: string) => ({
    inc: (labels: Record<string, string> = {}, value = 1) => void seen.push({ name, labels, value }),
    observe: (value: number) => void seen.push({ name, labels: {}, value }),
    startTimer: () => () => void seen.push({ name, labels: {}, value: 0 }),
  });
  const names = ['consents', 'challenges', 'captures', 'webauthn', 'forensic', 'verdicts', 'live', 'assurance', 'belowRequired'];
  const metrics = Object.fromEntries(
    [...names, 'captureSources', 'captureBytes', 'captureSeconds'].map((n) => [n, instrument(n)]),
  ) as unknown as CeremonyMetrics;
  const counted = (name: string, labels: Record<string, string>) =>
    seen.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).length;
  return { metrics, counted, seen };
}

export function signingContext(over: Partial<SigningContext> = {}): SigningContext {
  return {
    transactionId: 42,
    signerIndex: 0,
    signerName: 'Ada Lovelace',
    signerEmail: 'ada@example.test',
    signerState: 'consent_accepted',
    documentName: 'contract.pdf',
    documentSha256: 'a'.repeat(64),
    referenceKey: '42/0/reference.jpg',
    retentionDays: 30,
    attestationType: 'signature',
    issuerName: 'Engines Ltd',
    verificationMode: 'biometric',
    attemptsLeft: 3,
    ...over,
  };
}

export function sessionRecord(over: Partial<Session> = {}): Session {
  return {
    _id: '42:0',
    transaction_id: 42,
    signer_index: 0,
    signer_email: 'ada@example.test',
    created_at: new Date(0),
    consent: { text_version: 'consent-v1', at: new Date(0), ip: '', user_agent: '' },
    challenge: null,
    attempt: 0,
    draws: 0,
    captures: [],
    webauthn: null,
    forensic_batches: 0,
    ...over,
  };
}

/** The transaction service's answer: the one context for the one token `tok`, null for any other. */
export const fakeSigningTokens = (ctx: SigningContext, token = 'tok') => ({
  resolve: async (t: string) => (t === token ? { ...ctx } : null),
});

export function fakeSessions(initial: Session) {
  let s: Session = structuredClone(initial);
  const outbox: OutboxEntry[] = [];
  const copy = () => structuredClone(s);
  return {
    get current() {
      return s;
    },
    outbox,
    ensure: async () => copy(),
    async recordConsent(_id: string, consent: Consent, event: OutboxEntry) {
      if (s.consent) return null;
      s = { ...s, consent };
      outbox.push(event);
      return copy();
    },
    async setChallenge(_id: string, attempt: number, draws: number, challenge: ChallengeRecord) {
      if (s.attempt !== attempt || s.draws !== draws || !s.consent) return false;
      s = { ...s, challenge, webauthn: null, draws: draws + 1 };
      return true;
    },
    async startLive(_id: string, nonce: string, at: Date, expiresAt: Date) {
      const c = s.challenge;
      if (!c || c.nonce !== nonce || c.mode !== 'live' || c.live_started_at) return false;
      s = { ...s, challenge: { ...c, live_started_at: at, expires_at: expiresAt } };
      return true;
    },
    async forfeitAttempt(_id: string, draws: number, capture: CaptureRecord, event: OutboxEntry) {
      if (s.attempt !== capture.attempt - 1 || s.draws !== draws) return false;
      s = { ...s, challenge: null, webauthn: null, attempt: capture.attempt, draws: 0, captures: [...s.captures, capture] };
      outbox.push(event);
      return true;
    },
    async acceptCapture(_id: string, capture: CaptureRecord, event: OutboxEntry, now: Date) {
      const c = s.challenge;
      if (s.attempt !== capture.attempt - 1 || c?.nonce !== capture.nonce || c.expires_at <= now) return false;
      s = { ...s, challenge: null, attempt: capture.attempt, draws: 0, captures: [...s.captures, capture] };
      outbox.push(event);
      return true;
    },
    async refuseCapture(_id: string, nonce: string, refusal: CaptureRefusal) {
      if (s.challenge?.nonce !== nonce) return false;
      s = { ...s, challenge: null, webauthn: null, refusals: [...(s.refusals ?? []), refusal] };
      return true;
    },
    async setWebauthn(_id: string, nonce: string, rec: WebauthnRecord) {
      if (s.challenge?.nonce !== nonce) return false;
      s = { ...s, webauthn: rec };
      return true;
    },
    async recordOutcome(
      transactionId: number,
      signerIndex: number,
      captureId: string,
      outcome: string,
      failedChecks: string[] = [],
    ) {
      if (transactionId !== s.transaction_id || signerIndex !== s.signer_index) return false;
      const i = s.captures.findIndex((c) => c.capture_id === captureId);
      if (i < 0 || s.captures[i]!.outcome !== null) return false;
      s = { ...s, captures: s.captures.map((c, k) => (k === i ? { ...c, outcome, failed_checks: failedChecks } : c)) };
      return true;
    },
    async takeForensicBatch(_id: string, max: number) {
      if (s.forensic_batches >= max) return null;
      s = { ...s, forensic_batches: s.forensic_batches + 1 };
      return s.forensic_batches;
    },
  };
}
