import type { AuditRepository } from '../store/audit.repository.js';
import type { PasskeyRepository } from '../store/passkey.repository.js';
import type { RecoveryCodeRepository } from '../store/recovery-code.repository.js';
import type { WebauthnChallengeRepository } from '../store/webauthn-challenge.repository.js';
import type { IdentityDeps } from './deps.js';

/** What the passkey, recovery-code and audit-log use cases add to identity's dependencies. */
export type SecurityDeps = IdentityDeps & {
  passkeys: PasskeyRepository;
  recoveryCodes: RecoveryCodeRepository;
  webauthnChallenges: WebauthnChallengeRepository;
  audit: AuditRepository;
  /** The relying party: its id (a host name) and the origin the dashboard is served from. */
  webauthn: { rpId: string; rpName: string; origin: string };
  securityMetrics: {
    passkeys: { inc(labels: { action?: string; result?: string }): void };
    recoveryCodes: { inc(labels: { action?: string; result?: string }): void };
    audit: { inc(labels: { action?: string }): void };
  };
};
