import type { Logger } from '@signet/kit';
import type { SigningContext } from '../domain/signer.js';
import type { CeremonyMetrics } from '../metrics.js';
import type { CaptureObjects } from '../store/capture.objects.js';
import type { CredentialRepository } from '../store/credential.repository.js';
import type { ForensicRepository } from '../store/forensic.repository.js';
import type { LiveBuffer } from '../store/live.buffer.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { WebauthnChallengeRepository } from '../store/webauthn-challenge.repository.js';

/** ResolveSigningToken of the transaction service: null for an unknown, cancelled or finished token. */
export type SigningTokens = { resolve(token: string): Promise<SigningContext | null> };

/**
 * Everything a use case may be handed. Each use case names the part it needs (`Pick`, and of a
 * repository only the methods it calls), so a unit test passes in-memory fakes of just those.
 */
export type CeremonyDeps = {
  signingTokens: SigningTokens;
  sessions: SessionRepository;
  forensic: ForensicRepository;
  credentials: CredentialRepository;
  webauthnChallenges: WebauthnChallengeRepository;
  live: LiveBuffer;
  captures: CaptureObjects;
  /** ffmpeg/ffprobe and the longest video accepted (config: FFMPEG_PATH, FFPROBE_PATH, MEDIA_*). */
  media: { ffmpeg: string; ffprobe: string; timeoutMs: number; maxSeconds: number };
  /** The relying party (config: WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME, WEBAUTHN_ORIGIN). */
  webauthn: { rpId: string; rpName: string; origin: string };
  /** CHALLENGE_TEST_SEED (tests only; config.ts refuses it in production): challenges drawn from it. */
  challengeTestSeed?: string | undefined;
  metrics: CeremonyMetrics;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  /** Called after a session document with an outbox event is written: wakes the relay. */
  onOutbox: () => void;
  /** The clock, in Unix milliseconds. */
  now: () => number;
};
