import type { LifecycleOperator } from '../domain/lifecycle-settings.js';
import type { Logger, Mailer } from '@signet/kit';
import type { PasswordHasher, SecretBox } from '../domain/secrets.js';
import type { Sessions } from '../domain/session.js';
import type { IdentityMetrics } from '../metrics.js';
import type { ApiKeyRepository } from '../store/api-key.repository.js';
import type { InvitationRepository } from '../store/invitation.repository.js';
import type { MfaChallengeRepository } from '../store/mfa-challenge.repository.js';
import type { SignupRepository } from '../store/signup.repository.js';
import type { UserRepository } from '../store/user.repository.js';

/**
 * Everything a use case may be handed. Each use case names the part it needs (`Pick`, and of a
 * repository only the methods it calls), so a unit test passes in-memory fakes of just those.
 */
export type IdentityDeps = {
  users: UserRepository;
  signups: SignupRepository;
  apiKeys: ApiKeyRepository;
  invitations: InvitationRepository;
  mfaChallenges: MfaChallengeRepository;
  sessions: Sessions;
  /** argon2id (domain/secrets.ts). */
  passwords: PasswordHasher;
  box: SecretBox;
  mailer: Pick<Mailer, 'send'>;
  /** BIOMETRIC_RETENTION_DAYS and BIOMETRIC_RETENTION_MAX_DAYS: the default and the bound of an account's retention. */
  biometricRetention?: { defaultDays: number; maxDays: number };
  /** The operator's transaction lifecycle defaults and maximum expiry (domain/lifecycle-settings.ts). */
  lifecycle?: LifecycleOperator;
  /** SESSION_TTL_HOURS: the session length of accounts that have not set one. */
  defaultSessionTtlHours: number;
  metrics: IdentityMetrics;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Called after a document with an outbox event (user, invitation) is written: wakes the relay. */
  onUserCreated: () => void;
  /** The clock, in Unix milliseconds. */
  now: () => number;
};
