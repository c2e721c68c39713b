import { outboxEvent, type OutboxEntry } from '@signet/kit';
import { events } from '@signet/proto';
import { ACTION_SECONDS, READ_SECONDS } from '../domain/challenge.js';
import type { CaptureRecord } from '../domain/session.js';
import type { SigningContext } from '../domain/signer.js';
import { timelineMessage } from '../shared/timeline.message.js';

/**
 * The `capture.submitted` outbox entry of an accepted capture (what the biometrics service analyses),
 * written in the update that records the capture.
 */
export function captureSubmittedEvent(ctx: SigningContext, c: CaptureRecord, challengeMode: 'upload' | 'live'): OutboxEntry {
  const ch = c.challenge;
  return outboxEvent(events.captureSubmitted, (m) => ({
    eventId: m.event_id,
    occurredAt: m.occurred_at,
    transactionId: ctx.transactionId,
    signerIndex: ctx.signerIndex,
    captureId: c.capture_id,
    attempt: c.attempt,
    videoKey: c.video_key,
    frameKey: c.frame_key,
    referenceKey: ctx.referenceKey,
    challenge: {
      words: ch.words,
      actions: ch.actions,
      nonce: ch.nonce,
      expiresAt: ch.expires_at.toISOString(),
      readSeconds: READ_SECONDS,
      actionSeconds: ACTION_SECONDS,
      timeline: timelineMessage(ch.timeline),
      mode: challengeMode,
    },
    documentSha256: ctx.documentSha256,
    verificationMode: c.verification_mode,
    videoSha256: c.video_sha256,
    frameSha256: c.frame_sha256,
    live: c.live
      ? { shownMs: c.live.shown_ms, arrivalMs: c.live.arrival_ms, assurance: c.assurance ?? 'recorded', detail: c.live.detail }
      : undefined,
    durationSeconds: c.duration_seconds,
    ip: c.ip,
    userAgent: c.user_agent,
  }));
}
