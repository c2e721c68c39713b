import type { ChallengeRecord } from '../domain/challenge.js';
import { drawChallenge, type DrawDeps } from './draw-challenge.js';

export type IssuedChallenge = { challenge: ChallengeRecord; attempt: number; drawsLeft: number };

/**
 * A challenge for a single upload (API clients that cannot stream): the words, the actions and
 * the whole timeline up front. A capture of it can prove at most the "recorded" assurance.
 */
export async function issueChallenge(deps: DrawDeps, token: string): Promise<IssuedChallenge> {
  const { r, challenge, drawsLeft } = await drawChallenge(deps, token, 'upload');
  return { challenge, attempt: r.session.attempt + 1, drawsLeft };
}
