import { startLiveClock, type ChallengeRecord } from '../domain/challenge.js';
import { captureInReview } from '../domain/errors.js';
import { revealOf, segmentCount, type Reveal } from '../domain/timeline.js';
import type { SessionRepository } from '../store/session.repository.js';
import { drawChallenge, type DrawDeps } from './draw-challenge.js';

export type LiveStart = { challenge: ChallengeRecord; attempt: number; segments: number; reveal: Reveal; drawsLeft: number };

/**
 * Starts a live recording: a challenge whose timeline nobody has seen, of which only segment 0
 * (neutral, its colour) is revealed now. The time of this answer is the origin of the chunks'
 * arrival times; the challenge is marked begun, so it is never served again, and its two minutes
 * count from now (a challenge drawn earlier for the WebAuthn step loses nothing to it).
 */
export async function startLive(
  deps: DrawDeps & { sessions: Pick<SessionRepository, 'startLive'> },
  token: string,
): Promise<LiveStart> {
  const { r, challenge: drawn, drawsLeft } = await drawChallenge(deps, token, 'live');
  const now = new Date(deps.now());
  const c = { ...drawn, expires_at: startLiveClock(now) };
  const t = c.timeline!;
  if (!(await deps.sessions.startLive(r.session._id, c.nonce, now, c.expires_at))) throw captureInReview();
  deps.metrics.live.inc({ result: 'started' });
  return { challenge: c, attempt: r.session.attempt + 1, segments: segmentCount(t), reveal: revealOf(t, c.words, 0), drawsLeft };
}
