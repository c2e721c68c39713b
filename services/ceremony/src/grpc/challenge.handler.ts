import type { ceremonyV1 } from '@signet/proto';
import { appendLive } from '../usecases/append-live.js';
import type { CeremonyDeps } from '../usecases/deps.js';
import { issueChallenge } from '../usecases/issue-challenge.js';
import { startLive } from '../usecases/start-live.js';
import { challengeOut, liveAckOut, liveStartOut } from './mappers.js';

/** IssueChallenge (single upload), StartLive and AppendLive (the live recording). */
export function challengeHandlers(deps: CeremonyDeps) {
  return {
    async issueChallenge(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.Challenge> {
      return challengeOut(await issueChallenge(deps, req.token));
    },

    async startLive(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.LiveStart> {
      return liveStartOut(await startLive(deps, req.token));
    },

    async appendLive(req: ceremonyV1.LiveChunk): Promise<ceremonyV1.LiveAck> {
      return liveAckOut(
        await appendLive(deps, { token: req.token, nonce: req.nonce, seq: req.seq, data: req.data, shown: req.shown }),
      );
    },
  };
}
