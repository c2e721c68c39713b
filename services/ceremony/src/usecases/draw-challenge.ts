import { randomUUID } from 'node:crypto';
import { conflict, outboxEvent } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { MAX_DRAWS_PER_ATTEMPT, newChallenge, reusableChallenge, type ChallengeRecord } from '../domain/challenge.js';
import { alreadyPassed, captureInReview, consentRequired, noAttemptsLeft } from '../domain/errors.js';
import { cryptoDraw, seededDraw } from '../domain/timeline.js';
import { resolve, stepOf, type CeremonyDeps, type Resolved } from '../grpc/context.js';
import type { CaptureRecord } from '../store/session.repository.js';

export const FORFEIT_SUBJECT = 'signet.ceremony.attempt.forfeited';

export type Drawn = { r: Resolved; challenge: ChallengeRecord; drawsLeft: number };

/**
 * The challenge for the next recording, upload or live: the current one again while it may be
 * served (same mode, time left, a live one not yet begun), else a new draw. Each attempt may draw
 * MAX_DRAWS_PER_ATTEMPT challenges; asking for one more spends the attempt (as a failed capture),
 * so redrawing until an old recording fits some challenge costs attempts.
 */
export async function drawChallenge(deps: CeremonyDeps, token: string, mode: 'upload' | 'live'): Promise<Drawn> {
  const r = await resolve(deps, token);
  const step = stepOf(r.ctx, r.session);
  if (step === 'consent') throw consentRequired();
  if (step === 'verifying') throw captureInReview();
  if (step === 'passed') throw alreadyPassed();
  if (step === 'failed' || r.ctx.attemptsLeft <= 0) throw noAttemptsLeft();
  const { session } = r;
  const again = reusableChallenge(session.challenge, mode);
  if (again) {
    deps.counters.challenges.inc({ kind: 'reused' });
    return { r, challenge: again, drawsLeft: MAX_DRAWS_PER_ATTEMPT - session.draws };
  }
  if (session.draws >= MAX_DRAWS_PER_ATTEMPT) {
    await forfeit(deps, r);
    throw conflict(
      `this attempt is spent: ${MAX_DRAWS_PER_ATTEMPT} challenges were drawn without a recording; ${Math.max(0, r.ctx.attemptsLeft - 1)} attempt(s) left`,
      'ATTEMPT_SPENT',
    );
  }
  const draw = deps.cfg.CHALLENGE_TEST_SEED
    ? seededDraw(deps.cfg.CHALLENGE_TEST_SEED, `${session._id}|${session.attempt + 1}|${session.draws}`)
    : cryptoDraw;
  const c = newChallenge(
    {
      documentSha256: r.ctx.documentSha256,
      transactionId: Number(r.ctx.transactionId),
      signerIndex: r.ctx.signerIndex,
      signerEmail: r.ctx.signerEmail,
    },
    mode,
    draw,
  );
  if (!(await deps.sessions.setChallenge(session._id, session.attempt, session.draws, c))) throw captureInReview();
  deps.counters.challenges.inc({ kind: 'new' });
  return { r, challenge: c, drawsLeft: MAX_DRAWS_PER_ATTEMPT - session.draws - 1 };
}

async function forfeit(deps: CeremonyDeps, r: Resolved): Promise<void> {
  const { session, ctx } = r;
  const attempt = session.attempt + 1;
  const captureId = randomUUID();
  const ch = session.challenge;
  const record: CaptureRecord = {
    capture_id: captureId,
    attempt,
    nonce: ch?.nonce ?? '',
    challenge: {
      words: ch?.words ?? [],
      actions: ch?.actions ?? [],
      nonce: ch?.nonce ?? '',
      salt: ch?.salt ?? '',
      issued_at: ch?.issued_at ?? new Date(),
      expires_at: ch?.expires_at ?? new Date(),
    },
    video_key: '',
    frame_key: '',
    video_sha256: '',
    frame_sha256: '',
    video_bytes: 0,
    frame_bytes: 0,
    video_type: '',
    frame_type: '',
    duration_seconds: 0,
    verification_mode: ctx.verificationMode || 'biometric',
    submitted_at: new Date(),
    ip: '',
    user_agent: '',
    outcome: 'FAIL',
    forfeited: true,
    failed_checks: ['challenge_redraws'],
  };
  const event = outboxEvent(FORFEIT_SUBJECT, (m) =>
    eventsV1.AttemptForfeited.encode({
      eventId: m.event_id,
      occurredAt: m.occurred_at,
      transactionId: Number(ctx.transactionId),
      signerIndex: ctx.signerIndex,
      captureId,
      attempt,
      reason: 'challenge_redraws',
    }).finish(),
  );
  if (!(await deps.sessions.forfeitAttempt(session._id, session.draws, record, event))) throw captureInReview();
  deps.counters.challenges.inc({ kind: 'forfeit' });
  deps.relay.kick();
}
