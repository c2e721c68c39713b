import type { ceremonyV1 } from '@signet/proto';
import { revealOf, segmentCount } from '../domain/timeline.js';
import { captureInReview } from '../domain/errors.js';
import type { CeremonyDeps } from '../grpc/context.js';
import { revealMessage } from '../grpc/mappers.js';
import { drawChallenge } from './draw-challenge.js';

/**
 * Starts a live recording: a challenge whose timeline nobody has seen, of which only segment 0
 * (neutral, its colour) is revealed now. The time of this answer is the origin of the chunks'
 * arrival times; the challenge is marked begun, so it is never served again.
 */
export async function startLive(deps: CeremonyDeps, token: string): Promise<ceremonyV1.LiveStart> {
  const { r, challenge: c, drawsLeft } = await drawChallenge(deps, token, 'live');
  const t = c.timeline!;
  if (!(await deps.sessions.startLive(r.session._id, c.nonce, new Date()))) throw captureInReview();
  deps.counters.live.inc({ result: 'started' });
  return {
    nonce: c.nonce,
    expiresAt: c.expires_at.toISOString(),
    attempt: r.session.attempt + 1,
    segmentMs: t.segment_ms,
    segments: segmentCount(t),
    reveal: revealMessage(revealOf(t, c.words, 0)),
    drawsLeft,
  };
}
