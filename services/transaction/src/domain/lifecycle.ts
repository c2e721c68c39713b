import { fieldInvalid, notPending, signerFinished } from './errors.js';
import { isReleased } from './signers.js';
import { deriveStatus, isPending, type Change, type Signer, type TxState } from './transaction.js';

/**
 * The end of a transaction other than its outcome (issue 18 items 3-4), as pure functions: a signer
 * declines, the transaction expires, the reminder schedule falls due. Applied like every change by
 * usecases/apply-change.ts; the timers are durable fields of the record, read by jobs/lifecycle-timers.job.ts.
 */

/** When the transaction expires and its reminder schedule, durable on the record. */
export type Timers = {
  expires_at: Date | null;
  /** When the next automatic reminder is due; null when none is (schedule off, all sent, or ended). */
  reminder_due_at: Date | null;
  reminder_every_ms: number;
  reminder_max: number;
  reminders_sent: number;
};

/** The defaults of a creation that asks for none: the operator's, or the account's own (accountDefaults); all durations in ms. */
export type LifecycleDefaults = {
  expiryMs: number;
  maxExpiryMs: number;
  reminderFirstMs: number;
  reminderEveryMs: number;
  reminderMax: number;
};

/** What a creation may ask for; anything absent takes the default. */
export type LifecycleRequest = {
  expiresAt?: Date;
  reminderFirstMs?: number;
  reminderEveryMs?: number;
  reminderMax?: number;
};

export const MAX_DECLINE_REASON = 500;
export const MAX_REMINDERS = 20;

/** The timers a new transaction starts with: expiry in the future and within the maximum, a sane schedule. */
export function initialTimers(now: Date, req: LifecycleRequest, d: LifecycleDefaults): Timers {
  const expires = req.expiresAt ?? new Date(now.getTime() + d.expiryMs);
  if (Number.isNaN(expires.getTime())) throw fieldInvalid('expires_at', 'must be an ISO 8601 date-time');
  if (expires.getTime() <= now.getTime()) throw fieldInvalid('expires_at', 'must be in the future');
  if (expires.getTime() - now.getTime() > d.maxExpiryMs)
    throw fieldInvalid('expires_at', `must be at most ${Math.round(d.maxExpiryMs / 86_400_000)} days ahead`);
  const first = req.reminderFirstMs ?? d.reminderFirstMs;
  const every = req.reminderEveryMs ?? d.reminderEveryMs;
  const max = req.reminderMax ?? d.reminderMax;
  if (!Number.isInteger(max) || max < 0 || max > MAX_REMINDERS)
    throw fieldInvalid('reminder_max', `must be an integer from 0 to ${MAX_REMINDERS}`);
  if (!(first > 0)) throw fieldInvalid('reminder_first_after', 'must be positive');
  if (!(every > 0)) throw fieldInvalid('reminder_every', 'must be positive');
  const due = new Date(now.getTime() + first);
  return {
    expires_at: expires,
    reminder_due_at: max > 0 && due < expires ? due : null,
    reminder_every_ms: every,
    reminder_max: max,
    reminders_sent: 0,
  };
}

/** Past its expiry (a link of an expired transaction no longer works even before the timer ran). */
export const isExpired = (expiresAt: Date | null | undefined, now: Date): boolean =>
  !!expiresAt && new Date(expiresAt).getTime() <= now.getTime();

/** A signer who has yet to consent or to capture (a reminder's link is of use to them). */
const isUnfinished = (s: Signer): boolean => s.state === 'created' || s.state === 'consent_accepted';

/** Signers who have not finished and whose link routing has released: the ones a reminder goes to. */
export const toRemind = (signers: Signer[]): Signer[] => signers.filter((s) => isUnfinished(s) && isReleased(signers, s.index));

/**
 * The signer declines, with an optional reason (≤ 500 characters): terminal for the transaction
 * (`declined`). Only while pending (else TRANSACTION_NOT_PENDING) and only a signer who has not
 * finished (else SIGNER_FINISHED).
 */
export function applyDecline(state: TxState, index: number, reason: string, at: Date): Change {
  const why = reason.trim();
  if (why.length > MAX_DECLINE_REASON) throw fieldInvalid('reason', `must be at most ${MAX_DECLINE_REASON} characters`);
  if (!isPending(state.status)) throw notPending('decline', state.status);
  const s = state.signers[index];
  if (!s) throw notPending('decline', state.status);
  if (s.state === 'passed' || s.state === 'failed' || s.state === 'declined') throw signerFinished(s.state);
  const signers = state.signers.map((x) => (x.index === index ? { ...x, state: 'declined' as const, decline_reason: why } : x));
  return {
    signers,
    status: deriveStatus(signers, state.certificate_issued),
    log: [
      {
        type: 'signer_declined',
        at,
        actor: `signer:${index}`,
        detail: `${s.name} <${s.email}> declined to sign${why ? `: ${why}` : ' (no reason given)'}`,
      },
    ],
    signerChanged: { index, from: s.state, to: 'declined', attempts_left: s.attempts_left },
    nowVerified: false,
    statusActor: `signer:${index}`,
    declined: { index, reason: why },
  };
}

/** The expiry timer: a pending transaction past its `expires_at` → `expired` (its links die with the status). */
export function applyExpire(state: TxState, at: Date): Change | null {
  if (!isPending(state.status) || !isExpired(state.timers?.expires_at, at)) return null;
  return {
    signers: state.signers,
    status: 'expired',
    log: [
      {
        type: 'expired',
        at,
        actor: 'system',
        detail: `expired at ${new Date(state.timers!.expires_at!).toISOString()}; signing links no longer work`,
      },
    ],
    nowVerified: false,
    timers: { reminder_due_at: null },
  };
}

/**
 * The reminder schedule fell due: the link goes again to every signer who has not finished and whose
 * order is released, and the next reminder is due `every` later, until `max` were sent or the
 * transaction would have expired. A signer whose order is not released yet gets none, but keeps the
 * schedule going (nothing sent, nothing counted) so they are reminded once it is; nobody left to
 * remind, now or later, stops it. Not due, ended or expired → null.
 */
export function applyReminderDue(state: TxState, at: Date): Change | null {
  const t = state.timers;
  if (!t || !isPending(state.status) || !t.reminder_due_at || new Date(t.reminder_due_at) > at) return null;
  if (isExpired(t.expires_at, at)) return null;
  const to = toRemind(state.signers);
  const later = state.signers.some((s) => isUnfinished(s) && !isReleased(state.signers, s.index));
  const sent = t.reminders_sent + (to.length ? 1 : 0);
  const next = new Date(at.getTime() + t.reminder_every_ms);
  const more = (to.length > 0 || later) && sent < t.reminder_max && (!t.expires_at || next < new Date(t.expires_at));
  return {
    signers: state.signers,
    status: state.status,
    log: to.length
      ? [
          {
            type: 'reminder_requested',
            at,
            actor: 'system',
            detail: `reminder ${sent} of ${t.reminder_max} to be sent to ${to.map((s) => s.email).join(', ')}`,
          },
        ]
      : [],
    nowVerified: false,
    ...(to.length ? { reminder: { at, signerIndexes: to.map((s) => s.index), automatic: true } } : {}),
    timers: { reminders_sent: sent, reminder_due_at: more ? next : null },
  };
}

/** The lifecycle part of the creation fields as they arrive (0 or empty: the default; reminder_max -1: none). */
export type LifecycleRaw = {
  expiresAt: string;
  reminderFirstAfterSeconds: number;
  reminderEverySeconds: number;
  reminderMax: number;
};

/** The shortest reminder interval a creation may ask for unless the operator says otherwise (REMINDER_MIN_EVERY_SECONDS). */
export const MIN_REMINDER_EVERY_SECONDS = 3_600;

/**
 * Reads what a creation asked for; a malformed date, a negative duration or a reminder interval under
 * the minimum (an hour: each reminder is a mail to a person) → INVALID_ARGUMENT naming the field.
 */
export function lifecycleRequest(raw: LifecycleRaw | undefined, minEverySeconds = MIN_REMINDER_EVERY_SECONDS): LifecycleRequest {
  if (!raw) return {};
  const req: LifecycleRequest = {};
  const at = raw.expiresAt.trim();
  if (at) {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(at) || Number.isNaN(Date.parse(at)))
      throw fieldInvalid('expires_at', 'must be an RFC 3339 date-time with a time zone, e.g. 2026-12-31T17:00:00Z');
    req.expiresAt = new Date(at);
  }
  if (raw.reminderFirstAfterSeconds < 0) throw fieldInvalid('reminder_first_after_seconds', 'must be positive');
  if (raw.reminderEverySeconds < 0) throw fieldInvalid('reminder_every_seconds', 'must be positive');
  if (raw.reminderEverySeconds && raw.reminderEverySeconds < minEverySeconds)
    throw fieldInvalid('reminder_every_seconds', `must be at least ${minEverySeconds} (${everyText(minEverySeconds)})`);
  if (raw.reminderFirstAfterSeconds) req.reminderFirstMs = raw.reminderFirstAfterSeconds * 1000;
  if (raw.reminderEverySeconds) req.reminderEveryMs = raw.reminderEverySeconds * 1000;
  if (raw.reminderMax === -1) req.reminderMax = 0;
  else if (raw.reminderMax) req.reminderMax = raw.reminderMax;
  return req;
}

const everyText = (s: number) => (s % 3_600 === 0 ? `${s / 3_600} hour${s === 3_600 ? '' : 's'}` : `${s} seconds`);

/** The operator's configuration as lifecycle defaults. */
export type LifecycleConfig = {
  EXPIRY_DEFAULT_SECONDS: number;
  EXPIRY_MAX_SECONDS: number;
  REMINDER_FIRST_AFTER_SECONDS: number;
  REMINDER_EVERY_SECONDS: number;
  REMINDER_MAX: number;
  REMINDER_MIN_EVERY_SECONDS?: number;
};
export const lifecycleDefaults = (c: LifecycleConfig): LifecycleDefaults => ({
  expiryMs: c.EXPIRY_DEFAULT_SECONDS * 1000,
  maxExpiryMs: c.EXPIRY_MAX_SECONDS * 1000,
  reminderFirstMs: c.REMINDER_FIRST_AFTER_SECONDS * 1000,
  reminderEveryMs: c.REMINDER_EVERY_SECONDS * 1000,
  reminderMax: c.REMINDER_MAX,
});

/** An account's own defaults (identity.settings.changed); absent: the operator's. */
export type AccountLifecycle = {
  expiry_days?: number;
  reminder_first_after_hours?: number;
  reminder_every_hours?: number;
  reminder_max?: number;
};

/**
 * The operator's defaults with the account's own in their place. The account's expiry is bounded by
 * the operator's maximum as it is now (it may have been lowered since the account set it).
 */
export function accountDefaults(d: LifecycleDefaults, a: AccountLifecycle): LifecycleDefaults {
  const hours = (h: number | undefined, fallback: number) => (h && h > 0 ? h * 3_600_000 : fallback);
  return {
    expiryMs: a.expiry_days && a.expiry_days > 0 ? Math.min(a.expiry_days * 86_400_000, d.maxExpiryMs) : d.expiryMs,
    maxExpiryMs: d.maxExpiryMs,
    reminderFirstMs: hours(a.reminder_first_after_hours, d.reminderFirstMs),
    reminderEveryMs: hours(a.reminder_every_hours, d.reminderEveryMs),
    reminderMax: a.reminder_max !== undefined ? Math.min(Math.max(0, a.reminder_max), MAX_REMINDERS) : d.reminderMax,
  };
}
