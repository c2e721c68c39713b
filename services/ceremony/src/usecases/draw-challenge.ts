import { randomUUID } from 'node:crypto';
import { conflict } from '@signet/kit';
import { forfeitedCapture, FORFEIT_REASON } from '../domain/capture.js';
import { MAX_DRAWS_PER_ATTEMPT, newChallenge, reusableChallenge, type ChallengeRecord } from '../domain/challenge.js';
import { requiredOf, uploadAllowed } from '../domain/assurance.js';
import { alreadyPassed, captureInReview, consentRequired, liveRequired, noAttemptsLeft } from '../domain/errors.js';
import { stepOf } from '../domain/signer.js';
import { cryptoDraw, seededDraw } from '../domain/timeline.js';
import { attemptForfeitedEvent } from '../events/attempt-forfeited.publisher.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type Resolved, type ResolveDeps } from './resolve-session.js';

export type Drawn = { r: Resolved; challenge: ChallengeRecord; drawsLeft: number };
export type DrawDeps = ResolveDeps &
  Pick<CeremonyDeps, 'challengeTestSeed' | 'metrics' | 'onOutbox' | 'now'> & {
    sessions: Pick<SessionRepository, 'ensure' | 'setChallenge' | 'forfeitAttempt'>;
  };

/**
 * The challenge for the next recording, upload or live: the current one again while it may be
 * served (same mode, time left, a live one not yet begun), else a new draw. Each attempt may draw
 * MAX_DRAWS_PER_ATTEMPT challenges; asking for one more spends the attempt (as a failed capture),
 * so redrawing until an old recording fits some challenge costs attempts.
 */
export async function drawChallenge(deps: DrawDeps, token: string, mode: 'upload' | 'live'): Promise<Drawn> {
  const r = await resolveSession(deps, token);
  const step = stepOf(r.ctx, r.session);
  if (step === 'consent') throw consentRequired();
  if (step === 'verifying') throw captureInReview();
  if (step === 'passed') throw alreadyPassed();
  if (step === 'failed' || r.ctx.attemptsLeft <= 0) throw noAttemptsLeft();
  // The single upload proves "recorded" at most (issue 30): offered only where the sender accepts it; nothing is drawn.
  const required = requiredOf(r.ctx);
  if (mode === 'upload' && !uploadAllowed(required)) {
    deps.metrics.belowRequired.inc({ required, offered: 'upload' });
    throw liveRequired(required);
  }
  const { session } = r;
  const now = new Date(deps.now());
  const again = reusableChallenge(session.challenge, mode, now);
  if (again) {
    deps.metrics.challenges.inc({ kind: 'reused' });
    return { r, challenge: again, drawsLeft: MAX_DRAWS_PER_ATTEMPT - session.draws };
  }
  if (session.draws >= MAX_DRAWS_PER_ATTEMPT) {
    await forfeit(deps, r, now);
    throw conflict(
      `this attempt is spent: ${MAX_DRAWS_PER_ATTEMPT} challenges were drawn without a recording; ${Math.max(0, r.ctx.attemptsLeft - 1)} attempt(s) left`,
      'ATTEMPT_SPENT',
    );
  }
  const draw = deps.challengeTestSeed
    ? seededDraw(deps.challengeTestSeed, `${session._id}|${session.attempt + 1}|${session.draws}`)
    : cryptoDraw;
  const c = newChallenge(
    {
      documentSha256: r.ctx.documentSha256,
      transactionId: r.ctx.transactionId,
      signerIndex: r.ctx.signerIndex,
      signerEmail: r.ctx.signerEmail,
    },
    mode,
    draw,
    now,
  );
  if (!(await deps.sessions.setChallenge(session._id, session.attempt, session.draws, c))) throw captureInReview();
  deps.metrics.challenges.inc({ kind: 'new' });
  return { r, challenge: c, drawsLeft: MAX_DRAWS_PER_ATTEMPT - session.draws - 1 };
}

/** Spends the attempt whose draws are used up: a failed capture record without media, and the event. */
async function forfeit(deps: DrawDeps, { session, ctx }: Resolved, now: Date): Promise<void> {
  const attempt = session.attempt + 1;
  const captureId = randomUUID();
  const record = forfeitedCapture({
    captureId,
    attempt,
    challenge: session.challenge,
    verificationMode: ctx.verificationMode,
    at: now,
  });
  const event = attemptForfeitedEvent({
    transactionId: ctx.transactionId,
    signerIndex: ctx.signerIndex,
    captureId,
    attempt,
    reason: FORFEIT_REASON,
  });
  if (!(await deps.sessions.forfeitAttempt(session._id, session.draws, record, event))) throw captureInReview();
  deps.metrics.challenges.inc({ kind: 'forfeit' });
  deps.onOutbox();
}
