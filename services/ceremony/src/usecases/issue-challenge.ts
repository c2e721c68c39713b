import type { ceremonyV1 } from '@signet/proto';
import { ACTION_SECONDS, READ_SECONDS } from '../domain/challenge.js';
import type { CeremonyDeps } from '../grpc/context.js';
import { timelineMessage } from '../grpc/mappers.js';
import { drawChallenge } from './draw-challenge.js';

/**
 * A challenge for a single upload (API clients that cannot stream): the words, the actions and
 * the whole timeline up front. A capture of it can prove at most the "recorded" assurance.
 */
export async function issueChallenge(deps: CeremonyDeps, token: string): Promise<ceremonyV1.Challenge> {
  const { r, challenge: c, drawsLeft } = await drawChallenge(deps, token, 'upload');
  return {
    words: c.words,
    actions: c.actions,
    nonce: c.nonce,
    expiresAt: c.expires_at.toISOString(),
    attempt: r.session.attempt + 1,
    actionSeconds: ACTION_SECONDS,
    readSeconds: READ_SECONDS,
    timeline: timelineMessage(c.timeline),
    drawsLeft,
    assurance: 'recorded',
  };
}
