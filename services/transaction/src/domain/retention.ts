import { createHash } from 'node:crypto';
import type { LogEntry } from './transaction.js';

/**
 * Biometric retention (docs/privacy.md): how long a transaction's reference photo and capture media
 * are kept after it ends, and how their erasure is written to the event log.
 */
export const ERASURE_REASONS = ['retention', 'sender', 'signer'] as const;
export type ErasureReason = (typeof ERASURE_REASONS)[number];

/** The period of a new transaction: the requested days (the account's), else the default, never above the operator's maximum. */
export function retentionDays(requested: number | null | undefined, defaultDays: number, maxDays: number): number {
  const days = requested ?? defaultDays;
  return Math.max(0, Math.min(Math.floor(days), maxDays));
}

/** When the biometric data of a transaction that ended at `endedAt` is due for erasure. */
export function erasureDue(endedAt: Date, days: number, dayMs: number): Date {
  return new Date(endedAt.getTime() + days * dayMs);
}

/** An object key as the log and events show it: its SHA-256, so the log proves what went without naming it. */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Who erased, as the event log's actor. */
const ACTOR: Record<ErasureReason, string> = { retention: 'system', sender: 'sender', signer: 'signer' };

/** The log entry of the reference photo's erasure (also written when there was none, to record the erasure itself). */
export function referenceErasedEntry(referenceKey: string, reason: ErasureReason, at: Date): LogEntry {
  const what = referenceKey ? `reference photo (key sha256 ${keyDigest(referenceKey)})` : 'no reference photo';
  return { type: 'biometrics_erased', at, actor: ACTOR[reason], detail: `${what}; reason ${reason}` };
}

/** The log entry of one signer's capture media erased by the ceremony service (keys already hashed there). */
export function mediaErasedEntry(signerIndex: number, keyDigests: string[], reason: string, at: Date): LogEntry {
  const why = (ERASURE_REASONS as readonly string[]).includes(reason) ? reason : 'retention';
  const what = keyDigests.length
    ? `${keyDigests.length} capture object(s) (key sha256 ${keyDigests.join(', ')})`
    : 'no capture objects';
  return {
    type: 'media_erased',
    at,
    actor: ACTOR[why as ErasureReason],
    detail: `signer ${signerIndex}: ${what}; reason ${why}`,
  };
}

/** Whether the log already records signer `signerIndex`'s media erasure (a redelivered event changes nothing). */
export const mediaErasureLogged = (log: LogEntry[], signerIndex: number): boolean =>
  log.some((e) => e.type === 'media_erased' && e.detail.startsWith(`signer ${signerIndex}:`));

/** A signer's erasure request (through the completion mail's link), as stored on the transaction. */
export interface ErasureRequest {
  /** `signer:<index>` */
  by: string;
  at: Date;
  /** when the data goes: the request plus the notice period */
  due: Date;
  /** when the sender's notice mail was accepted for delivery; null until then */
  sender_notified_at: Date | null;
}

/**
 * When a signer's request made at `now` erases the data: after the notice period (the sender hears
 * of it first), or at the end of the retention already set if that comes sooner. Never later than
 * what was already promised.
 */
export function signerErasureDue(now: Date, noticeMs: number, deleteAfter: Date | null | undefined): Date {
  const due = new Date(now.getTime() + noticeMs);
  return deleteAfter && deleteAfter.getTime() < due.getTime() ? new Date(deleteAfter) : due;
}

/** The log entry of a signer's erasure request. */
export function erasureRequestedEntry(signerIndex: number, due: Date, at: Date): LogEntry {
  return {
    type: 'biometrics_erasure_requested',
    at,
    actor: 'signer',
    detail: `signer ${signerIndex} asked for their biometric data to be erased; due ${due.toISOString()}`,
  };
}

/** Why a due erasure happens: the signer's request when it is the one that fell due, else retention. */
export function dueErasureReason(request: Pick<ErasureRequest, 'due'> | null | undefined, now: Date): ErasureReason {
  return request && new Date(request.due).getTime() <= now.getTime() ? 'signer' : 'retention';
}
